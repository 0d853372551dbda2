"""Write one repository task (an injected bug in a real package) as a case folder.

The instruction is a user's bug report: the failing tests' names, the assertion and the end of the
traceback pytest printed, never the change itself. Difficulty comes from what the fix touches.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from nightshift.suites.pypi_tasks.mutate import Mutation, unified_diff
from nightshift.suites.swebench import apply_script

WORKDIR = "/workspace"
_NO_COPY = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", "*.orig", "*.rej", ".tox", ".nox", ".pytest_cache")


def case_id(spec: str, mutation: Mutation) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{spec.replace('==', '-')}-{mutation.function}")
    return stem.strip("-").lower()


def difficulty(lines_changed: int, failing: list[str], function: str) -> str:
    """How directly the bug report leads to the fix: easy when a failing test is named after the broken
    function, medium when several tests fail but none is, hard when one or two unrelated-looking tests fail
    (or the fix spans more than 4 changed lines)."""
    if lines_changed > 4:
        return "hard"
    stem = function.strip("_").lower()
    if any(stem and stem in name.rpartition("::")[2].lower() for name in failing):
        return "easy"
    return "medium" if len(failing) >= 3 else "hard"


def _report(spec: str, failing: list[str], failures: dict[str, str]) -> str:
    shown = failing[:5]
    first = failures.get(failing[0], "").strip().splitlines()
    trace = "\n".join(first[-25:])
    more = f"\n... and {len(failing) - len(shown)} more" if len(failing) > len(shown) else ""
    name = spec.partition("==")[0]
    return (f"# {name}: tests fail after a change in the library\n\n"
            f"Running the test suite of {spec} (checked out at `{WORKDIR}`, installed in development mode) "
            f"gives {len(failing)} failing test{'s' * (len(failing) != 1)}:\n\n"
            + "".join(f"- `{t}`\n" for t in shown) + more +
            f"\n\nThe first one fails like this:\n\n```\n{trace}\n```\n\n"
            f"These tests passed before. Find the bug in the library's source and fix it so they pass again "
            f"without breaking the other tests. Do not edit the tests: the shipped test files are restored "
            f"before grading. Run them with `python -m pytest` in `{WORKDIR}`.\n")


def breaking_patch(source: Path, mutation: Mutation, other: Mutation) -> str:
    """From this task's workspace: the gold fix plus ``other``'s bug, a change that must be caught."""
    before = {mutation.file: mutation.mutated_text}
    before.setdefault(other.file, (source / other.file).read_text())
    after = {mutation.file: (source / mutation.file).read_text(), other.file: other.mutated_text}
    return "".join(unified_diff(rel, before[rel], after[rel]) for rel in sorted(before))


def write_breaking(folder: Path, patch: str) -> None:
    (folder / "solution" / "breaking_1.patch").write_text(patch)
    (folder / "solution" / "breaking_1.sh").write_text(apply_script(patch, WORKDIR))


def write_case(out: Path, spec: str, source: Path, tests_dir: Path, image: str, mutation: Mutation,
               failing: list[str], passing: list[str], failures: dict[str, str]) -> Path:
    folder = out / case_id(spec, mutation)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(source, folder / "workspace", symlinks=True, ignore=_NO_COPY)
    (folder / "workspace" / mutation.file).write_text(mutation.mutated_text)
    shutil.copytree(tests_dir, folder / "tests")
    (folder / "solution").mkdir()
    original = (source / mutation.file).read_text()
    gold = mutation.gold_patch(original)
    (folder / "solution" / "gold.patch").write_text(gold)
    (folder / "solution" / "solve.sh").write_text(apply_script(gold, WORKDIR))
    (folder / "instruction.md").write_text(_report(spec, failing, failures))
    changed = sum(1 for line in gold.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---")))
    name, _, version = spec.partition("==")
    q = json.dumps  # a JSON string or list of strings is valid TOML
    (folder / "case.toml").write_text(
        f'id = {q(folder.name)}\ndomain = {q("pypi:" + name)}\nsplit = "public"\nimage = {q(image)}\n\n'
        f'[tests]\nrunner = "run_tests.sh"\nlog_format = "junit"\nfail_to_pass = {q(failing)}\n'
        f'pass_to_pass = {q(passing)}\n\n[limits]\nmax_steps = 60\nwall_clock_s = 1800\ntest_timeout_s = 600\n\n'
        f'[source]\nformat = "pypi"\npackage = {q(name)}\nversion = {q(version)}\ntask_source = "injected bug"\n'
        f'mutation = {q(mutation.kind)}\nfile = {q(mutation.file)}\nfunction = {q(mutation.function)}\n'
        f'line = {mutation.line}\n\n[difficulty]\nlabel = {q(difficulty(changed, failing, mutation.function))}\n'
        f'lines_changed = {changed}\nfiles_touched = 1\nfailing_tests = {len(failing)}\n')
    return folder
