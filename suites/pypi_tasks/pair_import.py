"""One release-pair task: the newer release's tests run against the older release's source, in its image.

Both sdists are downloaded at import time. The image is the OLDER release's (its dependencies, the project
installed in development mode from /workspace); the newer release must not need a dependency it lacks. In
one container over a scratch workspace: the older source with the newer tests (``runs`` times), then the
gold patch applied to it (``runs`` times). A test that fails every run before and passes every run after is
FAIL_TO_PASS; one that passes every run in both is PASS_TO_PASS; the rest are listed as excluded. The
leak scan looks for the older source's files and the newer release's changed source files in the image.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from nightshift.suites.pypi_tasks import image as images
from nightshift.suites.pypi_tasks.changelog import find_entry
from nightshift.suites.pypi_tasks.download import Project, Refused, fetch_project
from nightshift.suites.pypi_tasks.layout import TestLayout, find_layout, source_files, write_grading_files
from nightshift.suites.pypi_tasks.mutate import Mutation, mutations
from nightshift.suites.pypi_tasks.pair_case import write_pair_case
from nightshift.suites.pypi_tasks.pairs import Pair, Split, check_budget, missing_requirements, split_diff
from nightshift.suites.pypi_tasks.upstream import TestBench, scratch_copy, sort_tests

Results = dict[str, tuple[bool, float, str, bool]]
PAIR_PYTEST_ARGS = "--continue-on-collection-errors"
BREAKING_TRIES = 6  # mutants tried for a breaking patch, in all: each costs one run of the suite


def _apply(workspace: Path, split: Split) -> None:
    """The gold patch, written file by file (what solve.sh does with git apply; validate-suite checks that)."""
    for rel, (_old, new) in split.source.items():
        target = workspace / rel
        if new is None:
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        for folder in [p for p in target.parents if p.is_relative_to(workspace) and p != workspace]:
            os.chmod(folder, 0o777)
        target.write_text(new)
        os.chmod(target, 0o666)


def _old_test_paths(project: Project) -> list[str]:
    try:
        return find_layout(project.source).paths
    except Refused:
        return []  # an older sdist without tests is fine: only the newer tests are run


def _runs(bench: TestBench, runs: int, timeout_s: int) -> list[Results]:
    found = []
    for _ in range(runs):
        try:
            results, code, output = bench.run(timeout_s)
        except Refused as exc:
            raise Refused(f"the newer tests on the older source: {exc}") from None
        if not results:  # e.g. the newer conftest.py imports what the older source lacks: no test is told apart
            tail = " | ".join(line for line in output.splitlines()[-4:] if line.strip())
            raise Refused(f"the newer tests do not run at all on the older source (exit {code}): {tail[:400]}")
        found.append(results)
    return found


def _failure(test: str, before: Results) -> str:
    """What the test printed on the older source; for a test never collected, its module's collection error."""
    if test in before:
        return before[test][2]
    module = test.split("::", 1)[0]
    for name, (passed, _s, text, _f) in before.items():
        last = name.rsplit("::", 1)[-1]
        if not passed and last and (module.startswith(last) or module.replace(".", "/").startswith(last)):
            return text
    return "(the test was not collected: its module fails to import on this source)"


def _breaking(bench: TestBench, workspace: Path, split: Split, old_source: Path, test_paths: list[str],
              graded: set[str], timeout_s: int, seed: int) -> str | None:
    """Gold + an injected bug that fails a graded test on the newer source: a patch that must be caught (a bug
    in the changed code mostly fails FAIL_TO_PASS tests: a wrong fix; elsewhere, PASS_TO_PASS ones)."""
    changed = [workspace / rel for rel in split.source if rel.endswith(".py") and split.source[rel][1] is not None]
    rest = [p for p in source_files(workspace, test_paths) if p not in changed]
    for tries, mutation in enumerate(_ordered(workspace, changed, rest, seed)):
        if tries >= BREAKING_TRIES:
            break
        target = workspace / mutation.file
        original = target.read_text()
        target.write_text(mutation.mutated_text)
        try:
            results, _code, _out = bench.run(timeout_s)
        except Refused:
            results = {}
        finally:
            target.write_text(original)
        if results and any(not results.get(t, (False, 0.0, "", True))[0] for t in graded):
            broken = Split(source=dict(split.source), tests=split.tests, skipped=split.skipped)
            old_path = old_source / mutation.file
            broken.source[mutation.file] = (old_path.read_text() if old_path.is_file() else None,
                                            mutation.mutated_text)
            return broken.gold_patch()
    return None


def _ordered(root: Path, changed: list[Path], rest: list[Path], seed: int) -> list[Mutation]:
    """Mutations of the changed files first (a bug near the fix), then the others."""
    first = list(islice(mutations(root, changed, seed=seed), BREAKING_TRIES // 2)) if changed else []
    return first + list(islice(mutations(root, rest, seed=seed), BREAKING_TRIES - len(first)))


@dataclass(frozen=True)
class PairParts:
    """What a pair's task is made of, from its two sdists (the importer's and build-suite's one reading)."""
    layout: TestLayout  # the newer release's tests: the grader's
    test_paths: list[str]  # the newer and the older test paths: never part of the gold patch
    split: Split
    originals: list[Path]  # what the leak scan looks for in the older image: the newer changed source + the older


def pair_parts(old: Project, new: Project) -> PairParts:
    layout = find_layout(new.source)
    test_paths = sorted(set(layout.paths) | set(_old_test_paths(old)))
    split = split_diff(old.source, new.source, test_paths)
    changed = [new.source / rel for rel, (_o, text) in split.source.items() if text is not None]
    return PairParts(layout, test_paths, split, changed + source_files(old.source, test_paths))


def write_pair_grading(new: Project, layout: TestLayout, tests_dir: Path) -> None:
    """tests/ from the newer sdist: a newer test module that imports a name the older source lacks must fail
    alone, not stop the run."""
    write_grading_files(new.source, layout, tests_dir, extra_args=PAIR_PYTEST_ARGS)


def import_pair(client, pair: Pair, out: Path, settings: dict) -> tuple[list[str], dict]:
    started = time.monotonic()
    old = fetch_project(f"{pair.name}=={pair.old}")
    new = fetch_project(f"{pair.name}=={pair.new}")
    parts = pair_parts(old, new)
    layout, test_paths, split = parts.layout, parts.test_paths, parts.split
    check_budget(split)
    missing = missing_requirements(["pytest", *new.test_requirements], old.wheelhouse)
    if missing:
        raise Refused(f"{pair.new} needs dependencies the image of {pair.old} lacks: {'; '.join(missing[:4])}")
    image_id = images.clean_project_image(client, old, parts.originals)
    runs, timeout_s = settings["runs"], settings["suite_timeout_s"]
    phases = {"image_and_scan_s": time.monotonic() - started}
    with tempfile.TemporaryDirectory(prefix="nightshift-pair-") as scratch_root:
        tests_dir = Path(scratch_root) / "tests"
        write_pair_grading(new, layout, tests_dir)
        workspace = scratch_copy(old.source, Path(scratch_root) / "workspace")
        bench = TestBench(client, image_id, workspace, tests_dir)
        try:
            mark = time.monotonic()
            before = _runs(bench, runs, timeout_s)
            _apply(workspace, split)
            after = sort_tests(bench, runs, settings["test_budget_s"], timeout_s)
            phases["test_runs_s"] = time.monotonic() - mark
            never_passed = {t for t in after.stable if not any(r.get(t, (False,))[0] for r in before)}
            always_passed = {t for t in after.stable if all(r.get(t, (False,))[0] for r in before)
                             and max(r[t][1] for r in before) <= settings["test_budget_s"]}
            f2p, p2p = sorted(never_passed), sorted(always_passed)
            if not f2p:
                raise Refused(f"none of the {len(after.stable)} stable tests of {pair.new} fails on the source "
                              f"of {pair.old}")
            breaking = _breaking(bench, workspace, split, old.source, test_paths, never_passed | always_passed,
                                 int(max(20.0, 3 * after.wall_s)), settings["seed"])
            phases["breaking_s"] = time.monotonic() - mark - phases["test_runs_s"]
        finally:
            bench.close()
        failures = {t: _failure(t, before[0]) for t in f2p}
        folder = write_pair_case(out, pair, old.source, tests_dir, image_id, split, f2p, p2p, failures,
                                 find_entry(new.source, pair.new), breaking)
    report = {"image": image_id, "pair": [pair.old, pair.new], "fail_to_pass": len(f2p), "pass_to_pass": len(p2p),
              "gold_files": sorted(split.source), "gold_lines": split.lines_changed(),
              "test_files_changed": len(split.tests), "not_in_gold": split.skipped, "tasks": [folder.name],
              "breaking_patch": breaking is not None,
              "excluded": {"flaky": after.flaky, "network": after.network, "slow": after.slow,
                           "failing": after.failing,
                           "unstable_before": sorted(set(after.stable) - never_passed - always_passed)},
              "phases": {k: round(v, 1) for k, v in phases.items()}, "import_s": round(time.monotonic() - started, 1)}
    return [folder.name], report
