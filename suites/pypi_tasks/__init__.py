"""``nightshift import-suite pypi SPEC... OUT``: repository tasks from real packages' sdists, offline at run time.

Per ``name==version``: download the sdist and the wheels its tests need (once per machine), build the
project's image (pinned by id), run its own tests ``runs`` times to find the stable ones (PASS_TO_PASS),
then inject one-function bugs and keep those that break at least one stable test while most still pass
(FAIL_TO_PASS; the gold patch is the reverse change). A project that cannot be used is refused by name
with the reason, and the import goes on with the next one. The report (what was refused, which tests were
excluded and why) is written to OUT/import-report.json and summarised in OUT/suite.toml.

``NAME==OLD..NEW`` (or ``NAME==NEW`` with ``release_pairs``: OLD is the release before it) makes a release-pair
task instead: the newer release's tests that fail on the older source (pair_import.py).
"""

from __future__ import annotations

import json
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from nightshift.errors import SuiteError
from nightshift.suites.pypi_tasks import image as images
from nightshift.suites.pypi_tasks.case import breaking_patch, write_breaking, write_case
from nightshift.suites.pypi_tasks.download import Refused, fetch_project, read_specs
from nightshift.suites.pypi_tasks.layout import TestLayout, find_layout, source_files, write_grading_files
from nightshift.suites.pypi_tasks.mutate import mutations
from nightshift.suites.pypi_tasks.pair_import import import_pair
from nightshift.suites.pypi_tasks.pairs import Pair, parse_pair, previous_release, pypi_versions
from nightshift.suites.pypi_tasks.upstream import TestBench, scratch_copy, sort_tests


@dataclass
class PypiImport:
    imported: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)
    projects: dict[str, dict] = field(default_factory=dict)


def _source_files(source: Path, layout: TestLayout) -> list[Path]:
    return source_files(source, layout.paths)


def _import_one(client, spec: str, out: Path, settings: dict) -> tuple[list[str], dict]:
    started = time.monotonic()
    project = fetch_project(spec)
    layout = find_layout(project.source)
    files = _source_files(project.source, layout)
    if not files:
        raise Refused("no importable source files outside its tests")
    image_id = images.clean_project_image(client, project, files)
    built_s = time.monotonic() - started
    with tempfile.TemporaryDirectory(prefix="nightshift-pypi-") as scratch_root:
        tests_dir = Path(scratch_root) / "tests"
        # one test module that cannot be collected here (an optional dependency) must not stop the others
        write_grading_files(project.source, layout, tests_dir, extra_args="--continue-on-collection-errors")
        workspace = scratch_copy(project.source, Path(scratch_root) / "workspace")
        bench = TestBench(client, image_id, workspace, tests_dir)
        try:
            sorted_tests = sort_tests(bench, settings["runs"], settings["test_budget_s"], settings["suite_timeout_s"])
            stable = set(sorted_tests.stable)
            kept: list[str] = []
            tried = 0
            found: list = []  # (case folder, mutation, its failing tests)
            mutant_timeout = int(max(20.0, 3 * sorted_tests.wall_s))  # an infinite loop must not cost minutes
            for mutation in mutations(project.source, files, seed=settings["seed"]):
                if len(kept) >= settings["tasks_per_package"] or tried >= settings["max_tries"]:
                    break
                tried += 1
                target = workspace / mutation.file
                original = target.read_text()
                target.write_text(mutation.mutated_text)
                try:
                    results, _code, _out = bench.run(mutant_timeout)
                except Refused:
                    results = {}  # a mutant that hangs the suite makes no task
                finally:
                    target.write_text(original)
                failing = sorted(t for t in stable if not results.get(t, (False, 0.0, "", True))[0])
                if results and 1 <= len(failing) <= len(stable) // 2:
                    failures = {t: results[t][2] if t in results else "not reported" for t in failing}
                    passing = sorted(stable - set(failing))
                    folder = write_case(out, spec, project.source, tests_dir, image_id, mutation, failing, passing,
                                        failures)
                    kept.append(folder.name)
                    found.append((folder, mutation, set(failing)))
        finally:
            bench.close()
    for folder, mutation, failing in found:
        # another kept bug that breaks a test this task keeps passing makes its breaking patch
        other = next((m for f, m, fails in found if f != folder and fails - failing), None)
        if other is not None:
            write_breaking(folder, breaking_patch(project.source, mutation, other))
    if not kept:
        raise Refused(f"none of {tried} injected bugs broke between 1 and half of its {len(stable)} stable tests")
    report = {"image": image_id, "stable_tests": len(stable), "mutations_tried": tried, "tasks": kept,
              "excluded": {"flaky": sorted_tests.flaky, "network": sorted_tests.network, "slow": sorted_tests.slow,
                           "failing": sorted_tests.failing},
              "image_build_s": round(built_s, 1), "import_s": round(time.monotonic() - started, 1)}
    return kept, report


def _pair_of(spec: str, release_pairs: bool) -> Pair | None:
    if ".." in spec:
        return parse_pair(spec, "import-suite pypi")
    if not release_pairs:
        return None
    name, _, new = spec.partition("==")
    return Pair(name, previous_release(name, new, pypi_versions(name)), new)


def import_pypi(specs: list[str], out: Path, name: str = "pypi", runs: int = 3, tasks_per_package: int = 5,
                max_tries: int = 40, test_budget_s: float = 5.0, suite_timeout_s: int = 300,
                seed: int = 0, release_pairs: bool = False) -> PypiImport:
    """Import every spec into the suite folder ``out``; refusals are listed, and an empty result is an error."""
    if runs < 1:
        raise SuiteError(f"import-suite pypi: --runs {runs}: run the upstream tests at least once (default 3)")
    wanted = read_specs(specs)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"runs": runs, "tasks_per_package": tasks_per_package, "max_tries": max_tries,
                "test_budget_s": test_budget_s, "suite_timeout_s": suite_timeout_s, "seed": seed}
    result = PypiImport()
    client = images.client()
    for spec in wanted:
        try:
            pair = _pair_of(spec, release_pairs)
            kept, report = (import_pair(client, pair, out, settings) if pair
                            else _import_one(client, spec, out, settings))
        except Refused as exc:
            result.refused[spec] = str(exc)
            continue
        result.imported.extend(kept)
        result.projects[spec] = report
    (out / "import-report.json").write_text(json.dumps({**asdict(result), "settings": settings}, indent=1) + "\n")
    refused = json.dumps([f"{k}: {v}" for k, v in sorted(result.refused.items())])
    (out / "suite.toml").write_text(f'name = {json.dumps(name)}\nversion = "1"\ndescription = "repository tasks '
                                    f'from PyPI sdists: {", ".join(wanted)}"\nrefused = {refused}\n')
    return result
