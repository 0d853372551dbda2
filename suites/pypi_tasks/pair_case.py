"""Write one release-pair task as a case folder.

The workspace is the older release's sdist as shipped (its own, older tests included); the newer release's
tests are only in tests/pristine/, copied over the workspace at grading. The instruction is written from
the failing tests (names, assertion, the end of the traceback) and the newer release's changelog entry
when its sdist has one; never from the diff.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from nightshift.suites.pypi_tasks.case import _NO_COPY, WORKDIR
from nightshift.suites.pypi_tasks.pairs import Pair, Split
from nightshift.suites.swebench import apply_script


def pair_case_id(pair: Pair) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{pair.name}-{pair.old}-to-{pair.new}").strip("-").lower()


def pair_difficulty(lines_changed: int, files: int) -> str:
    if lines_changed <= 10 and files == 1:
        return "easy"
    return "medium" if lines_changed <= 60 and files <= 3 else "hard"


def _instruction(pair: Pair, failing: list[str], failures: dict[str, str], notes: tuple[str, str] | None) -> str:
    shown = failing[:8]
    trace = "\n".join(failures.get(failing[0], "").strip().splitlines()[-25:])
    more = f"- ... and {len(failing) - len(shown)} more\n" if len(failing) > len(shown) else ""
    told = ""
    if notes:
        quoted = "\n".join(f"> {line}".rstrip() for line in notes[1].splitlines())
        told = f"\nThe release notes of {pair.new} ({notes[0]}) say:\n\n{quoted}\n"
    return (f"# {pair.name}: make the tests of release {pair.new} pass\n\n"
            f"`{WORKDIR}` holds the source of {pair.name} {pair.old}, installed in development mode. The test "
            f"suite of the next release, {pair.new}, is run against it at grading, and "
            f"{len(failing)} of its tests fail on this source:\n\n"
            + "".join(f"- `{t}`\n" for t in shown) + more +
            f"\nThe first one fails like this:\n\n```\n{trace}\n```\n{told}\n"
            f"Change the library's source so that these tests pass, without breaking the tests that pass now. "
            f"The newer test files are not in the workspace: they replace its test folders before grading, "
            f"and any test file you edit or add is discarded then. The tests run with `python -m pytest` in "
            f"`{WORKDIR}`.\n")


def write_pair_case(out: Path, pair: Pair, old_source: Path, tests_dir: Path, image: str, split: Split,
                    failing: list[str], passing: list[str], failures: dict[str, str],
                    notes: tuple[str, str] | None, breaking: str | None) -> Path:
    folder = out / pair_case_id(pair)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(old_source, folder / "workspace", symlinks=True, ignore=_NO_COPY)
    shutil.copytree(tests_dir, folder / "tests")
    (folder / "solution").mkdir()
    gold = split.gold_patch()
    (folder / "solution" / "gold.patch").write_text(gold)
    (folder / "solution" / "solve.sh").write_text(apply_script(gold, WORKDIR))
    if breaking is not None:
        (folder / "solution" / "breaking_1.patch").write_text(breaking)
        (folder / "solution" / "breaking_1.sh").write_text(apply_script(breaking, WORKDIR))
    (folder / "instruction.md").write_text(_instruction(pair, failing, failures, notes))
    lines = split.lines_changed()
    q = json.dumps  # a JSON string or list of strings is valid TOML
    (folder / "case.toml").write_text(
        f'id = {q(folder.name)}\ndomain = {q("pypi:" + pair.name)}\nsplit = "public"\nimage = {q(image)}\n\n'
        f'[tests]\nrunner = "run_tests.sh"\nlog_format = "junit"\nfail_to_pass = {q(failing)}\n'
        f'pass_to_pass = {q(passing)}\n\n[limits]\nmax_steps = 80\nwall_clock_s = 2400\ntest_timeout_s = 600\n\n'
        f'[source]\nformat = "pypi"\npackage = {q(pair.name)}\nversion = {q(pair.old)}\n'
        f'new_version = {q(pair.new)}\ntask_source = "release pair"\ngold_files = {q(sorted(split.source))}\n'
        f'changelog = {q(notes[0] if notes else "")}\n\n'
        f'[difficulty]\nlabel = {q(pair_difficulty(lines, len(split.source)))}\nlines_changed = {lines}\n'
        f'files_touched = {len(split.source)}\nfailing_tests = {len(failing)}\n')
    return folder
