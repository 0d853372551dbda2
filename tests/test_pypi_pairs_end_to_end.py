"""One real release pair end to end: `import-suite pypi cachetools==5.3.3..5.4.0` downloads both sdists, runs the
5.4.0 tests against the 5.3.3 source in the 5.3.3 image and keeps the tests the gold patch (the source diff without
tests) fixes. The sdists and wheels download once per machine into the PyPI cache; the image is cached by content.
The case then validates on bubblewrap: gold resolves every FAIL_TO_PASS test, the untouched workspace none,
and the breaking patch is caught; shipped as a recipe (suites/pypi), it builds back into the same case."""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from nightshift.errors import SuiteError
from nightshift.graders.validate import validate_cases
from nightshift.suites import load_cases
from nightshift.suites.pypi_tasks import import_pypi
from tests.sandbox_support import make_backend

PAIR = "cachetools==5.3.3..5.4.0"  # 5.4.0 added keys.typedmethodkey and its tests: ~30 kB sdists, tests in seconds


def test_a_release_pair_becomes_one_task_whose_gold_patch_is_the_source_diff(tmp_path: Path) -> None:
    make_backend("docker")  # the import builds with the engine: fail (CI) or skip with the reason
    out = tmp_path / "suite"
    result = import_pypi([PAIR], out, runs=1)
    assert result.imported == ["cachetools-5.3.3-to-5.4.0"], result.refused
    folder = out / result.imported[0]
    meta = tomllib.loads((folder / "case.toml").read_text())
    source, tests = meta["source"], meta["tests"]
    assert source["task_source"] == "release pair" and (source["version"], source["new_version"]) == ("5.3.3", "5.4.0")
    assert meta["image"].startswith("sha256:") and tests["log_format"] == "junit"
    f2p, p2p = set(tests["fail_to_pass"]), set(tests["pass_to_pass"])
    assert f2p and len(p2p) > 100 and not f2p & p2p
    assert any("test_cachedmethod" in t for t in f2p)  # its module imports keys.typedmethodkey
    gold = (folder / "solution" / "gold.patch").read_text()
    assert "def typedmethodkey" in gold and "src/cachetools/keys.py" in source["gold_files"]
    assert not any(f.startswith("tests/") or "CHANGELOG" in f or "PKG-INFO" in f for f in source["gold_files"])
    assert meta["difficulty"]["files_touched"] == len(source["gold_files"])
    # the workspace is the older source; the newer tests exist only in what the grader copies in
    assert "typedmethodkey" not in (folder / "workspace" / "src" / "cachetools" / "keys.py").read_text()
    assert "typedmethodkey" not in (folder / "workspace" / "tests" / "test_cachedmethod.py").read_text()
    assert "typedmethodkey" in (folder / "tests" / "pristine" / "tests" / "test_cachedmethod.py").read_text()
    assert "--continue-on-collection-errors tests" in (folder / "tests" / "run_tests.sh").read_text()
    text = (folder / "instruction.md").read_text()
    assert "has no attribute 'typedmethodkey'" in text and "CHANGELOG.rst" in text  # traceback + release note
    assert "return typedkey(*args, **kwargs)" not in text  # never the diff
    assert (folder / "solution" / "breaking_1.sh").is_file()
    report = json.loads((out / "import-report.json").read_text())["projects"][PAIR]
    assert report["fail_to_pass"] == len(f2p) and "CHANGELOG.rst" in report["not_in_gold"]
    work = tmp_path / "work"
    shutil.copytree(folder / "workspace", work)
    subprocess.run(["git", "apply"], input=gold, text=True, cwd=work, check=True)  # applies to the workspace
    assert "def typedmethodkey" in (work / "src" / "cachetools" / "keys.py").read_text()
    (case,) = load_cases(out)
    check = validate_cases([case], make_backend("bubblewrap"), repeats=1, jobs=1).checks[0]
    assert check.ok, check.problems  # includes: the breaking patch was caught
    assert check.oracle.f2p == (len(f2p), len(f2p)) and check.oracle.p2p == (len(p2p), len(p2p))
    assert check.empty.f2p[0] == 0
    _ships_and_builds_back(out, case, tmp_path)


def _ships_and_builds_back(suite: Path, case, tmp_path: Path) -> None:
    """The recipe holds no sdist, workspace or test tree; build-suite makes the same image, workspace and tests."""
    from nightshift.suites.loader import tree_hash
    from nightshift.suites.pypi_tasks.shipped import _check_grading, build, ship

    recipe = tmp_path / "recipe"
    ids, pins = ship([suite], recipe, {case.id})
    old, new = PAIR.split("..")[0], PAIR.split("==")[0] + "==" + PAIR.split("..")[1]
    assert ids == [case.id] and sorted(pins) == [old, new]
    meta = tomllib.loads((recipe / case.id / "case.toml").read_text())
    assert meta["image"] == f"pypi:{old}" and meta["source"]["new_version"] == "5.4.0"
    assert meta["source"]["pristine_hash"] == tree_hash(case.tests_dir / "pristine")
    assert not (recipe / case.id / "workspace").exists() and not (recipe / case.id / "tests" / "pristine").exists()
    assert not list((recipe / case.id / "solution").glob("*.sh"))  # the build writes them
    (recipe / "suite.toml").write_text(f'name = "r"\n[shipped.sdist_sha256]\n"{old}" = "{pins[old]}"\n')
    with pytest.raises(SuiteError, match=r"no pin for \['cachetools==5.4.0'\]"):
        build(recipe, tmp_path / "built")
    (recipe / "suite.toml").write_text(f'name = "r"\n[shipped.sdist_sha256]\n"{old}" = "{pins[old]}"\n'
                                       f'"{new}" = "{pins[new]}"\n')
    built = build(recipe, tmp_path / "built")  # the image exists (same content key): nothing is rebuilt
    (again,) = load_cases(built.out)
    assert again.image == case.image and tree_hash(again.workspace_dir) == tree_hash(case.workspace_dir)
    assert tree_hash(again.tests_dir) == tree_hash(case.tests_dir)
    assert tree_hash(again.root / "solution") == tree_hash(case.root / "solution")  # the importer's scripts
    runner = recipe / case.id / "tests" / "run_tests.sh"
    runner.write_text(runner.read_text().replace(" --continue-on-collection-errors", ""))
    with pytest.raises(SuiteError, match="run_tests.sh: not what the importer writes from cachetools==5.4.0"):
        _check_grading(recipe / case.id, again.tests_dir, new)
