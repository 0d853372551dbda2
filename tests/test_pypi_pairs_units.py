"""Release-pair pieces on small local trees: changelog entries in the formats projects use, the old -> new diff
split into the gold patch (source) and the rest (tests, docs, metadata), the patch applying with git and patch,
the budget and dependency refusals, the previous-release choice, and the case folder written from them."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from nightshift.errors import SuiteError
from nightshift.suites.pypi_tasks.changelog import entry, find_entry
from nightshift.suites.pypi_tasks.download import Refused, egg_info_requirements, read_specs, tox_deps
from nightshift.suites.pypi_tasks.layout import find_layout, write_grading_files
from nightshift.suites.pypi_tasks.pair_case import write_pair_case
from nightshift.suites.pypi_tasks.pairs import (
    Pair,
    check_budget,
    missing_requirements,
    parse_pair,
    previous_release,
    split_diff,
)

MARKDOWN = """# Changelog

## [Unreleased]

## [1.3.0] - 2024-02-01
### Fixed
- `clamp()` no longer returns the low bound for values above it (#12)

## [1.2.9] - 2024-01-01
- older entry
"""

RST = """Changes
=======

Version 2.1.0
-------------

Released 2024-03-03

-   ``parse`` accepts a trailing ``Z``.

Version 2.0.10
--------------

-   older
"""

PLAIN = """0.5.1 (2023-01-01)
  * fixed the parse of 0.5 values
0.5.0 (2022-12-01)
  * first
"""


@pytest.mark.parametrize(("text", "version", "wanted", "not_wanted"), [
    (MARKDOWN, "1.3.0", "no longer returns the low bound", "older entry"),
    (RST, "2.1.0", "accepts a trailing", "older"),
    (PLAIN, "0.5.1", "fixed the parse of 0.5 values", "first"),
])
def test_changelog_entry_is_the_section_of_that_version_only(text: str, version: str, wanted: str,
                                                              not_wanted: str) -> None:
    found = entry(text, version)
    assert found is not None and wanted in found and not_wanted not in found
    assert "-----" not in found and not found.startswith("\n")


def test_changelog_prefix_versions_and_missing_entries_are_not_confused() -> None:
    assert entry(RST, "2.0.1") is None  # 2.0.10's heading is not 2.0.1's
    assert entry(MARKDOWN, "1.3") is None
    assert "older" in (entry(RST, "2.0.10") or "")


def test_changelog_files_are_found_at_the_root_and_in_docs(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "changes.rst").write_text(RST)
    (tmp_path / "README.md").write_text("## 2.1.0\nnot a changelog\n")
    assert find_entry(tmp_path, "2.1.0") == ("docs/changes.rst", entry(RST, "2.1.0"))
    assert find_entry(tmp_path, "9.9.9") is None


OLD_CORE = "def clamp(value, low, high):\n    if value < low:\n        return low\n    return value\n"
NEW_CORE = ("def clamp(value, low, high):\n    if value < low:\n        return low\n    if value > high:\n"
            "        return high\n    return value\n")


def _release(root: Path, core: str, version: str, extra_test: bool) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pkg" / "__init__.py").write_text(f"__version__ = '{version}'\n")
    (root / "pkg" / "core.py").write_text(core)
    (root / "tests" / "test_core.py").write_text(
        "from pkg.core import clamp\n\ndef test_low():\n    assert clamp(-1, 0, 5) == 0\n"
        + ("\ndef test_high():\n    assert clamp(9, 0, 5) == 5\n" if extra_test else ""))
    (root / "PKG-INFO").write_text(f"Metadata-Version: 2.1\nName: pkg\nVersion: {version}\n")
    (root / "CHANGES.md").write_text(MARKDOWN if extra_test else "")
    (root / "docs").mkdir()
    (root / "docs" / "index.rst").write_text(f"pkg {version}\n")
    return root


def test_the_diff_splits_into_source_tests_and_prose_and_the_gold_patch_applies(tmp_path: Path) -> None:
    old = _release(tmp_path / "old", OLD_CORE, "1.2.9", extra_test=False)
    new = _release(tmp_path / "new", NEW_CORE, "1.3.0", extra_test=True)
    (new / "pkg" / "extra.py").write_text("X = 1")  # a new file without a final newline
    (old / "pkg" / "gone.py").write_text("Y = 2\n")
    split = split_diff(old, new, ["tests"])
    assert sorted(split.source) == ["pkg/__init__.py", "pkg/core.py", "pkg/extra.py", "pkg/gone.py"]
    assert split.tests == ["tests/test_core.py"]
    assert sorted(split.skipped) == ["CHANGES.md", "PKG-INFO", "docs/index.rst"]
    gold = split.gold_patch()
    assert "test_high" not in gold and "Unreleased" not in gold and "Version: 1.3.0" not in gold
    check_budget(split)
    for tool in (["git", "apply"], ["patch", "-p1", "-s"]):
        work = tmp_path / f"work-{tool[0]}"
        shutil.copytree(old, work)
        subprocess.run(tool, input=gold, text=True, cwd=work, check=True)
        assert (work / "pkg" / "core.py").read_text() == NEW_CORE
        assert (work / "pkg" / "extra.py").read_text() == "X = 1" and not (work / "pkg" / "gone.py").exists()
        assert (work / "tests" / "test_core.py").read_text() == (old / "tests" / "test_core.py").read_text()


def test_big_unchanged_and_binary_diffs_are_refused_by_name(tmp_path: Path) -> None:
    old = _release(tmp_path / "old", OLD_CORE, "1.0", extra_test=False)
    new = _release(tmp_path / "new", NEW_CORE, "1.1", extra_test=True)
    for i in range(3):
        (new / "pkg" / f"mod{i}.py").write_text("".join(f"v{n} = {n}\n" for n in range(50)))
    with pytest.raises(Refused, match=r"too large for one task: 5 files, 15\d lines changed \(budget 4 files"):
        check_budget(split_diff(old, new, ["tests"]), max_files=4, max_lines=400)
    with pytest.raises(Refused, match=r"budget 12 files, 100 lines\): pkg/__init__.py, pkg/core.py, pkg/mod0"):
        check_budget(split_diff(old, new, ["tests"]), max_lines=100)
    same = _release(tmp_path / "same", OLD_CORE, "1.0", extra_test=True)
    with pytest.raises(Refused, match="its source does not change between the releases"):
        check_budget(split_diff(old, same, ["tests"]))
    (new / "pkg" / "data.bin").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(Refused, match=r"changes a binary file \(pkg/data.bin\)"):
        split_diff(old, new, ["tests"])


def test_requirements_the_older_image_lacks_are_named(tmp_path: Path) -> None:
    for wheel in ("six-1.16.0-py2.py3-none-any.whl", "pytest-8.1.1-py3-none-any.whl"):
        (tmp_path / wheel).write_bytes(b"")
    assert missing_requirements(["pytest", "six>=1.10"], tmp_path) == []
    assert missing_requirements(["six>=1.17", "attrs"], tmp_path) == [
        "six>=1.17 (the older release's image has 1.16.0)", "attrs (the older release's image has none)"]


def test_egg_info_requirements_stand_in_for_a_pkg_info_without_them(tmp_path: Path) -> None:
    (tmp_path / "src" / "pkg.egg-info").mkdir(parents=True)
    (tmp_path / "src" / "pkg.egg-info" / "requires.txt").write_text(
        "six\n\n[:python_version < \"3\"]\nfutures\n\n[docs]\nsphinx\n\n[test]\nhypothesis>=3\n")
    assert egg_info_requirements(tmp_path) == (["six"], ["hypothesis>=3"])


def test_tox_deps_are_the_last_place_test_tools_are_read_from(tmp_path: Path) -> None:
    (tmp_path / "tox.ini").write_text("[tox]\nenvlist = py3\n[testenv]\ndeps =\n    pytest-mock\n    hypothesis>=6\n"
                                      "    -r requirements.txt\n    py38: backports.zoneinfo\n    {env:EXTRA:}\n")
    assert tox_deps(tmp_path) == ["pytest-mock", "hypothesis>=6"]


def test_coverage_options_are_dropped_from_addopts_and_the_rest_kept(tmp_path: Path) -> None:
    root = _release(tmp_path / "p", OLD_CORE, "1.0", extra_test=False)
    (root / "tox.ini").write_text("[pytest]\naddopts = --cov-append --cov-report=html --cov=pkg -ra --cov-report "
                                  "term --strict-markers\n")
    tests_dir = tmp_path / "grading"
    write_grading_files(root, find_layout(root), tests_dir)
    assert "-o 'addopts=-ra --strict-markers' tests" in (tests_dir / "run_tests.sh").read_text()
    (root / "tox.ini").write_text("[pytest]\naddopts = -ra\n")
    write_grading_files(root, find_layout(root), tests_dir)
    assert "addopts" not in (tests_dir / "run_tests.sh").read_text()


def _listing(tmp_path: Path) -> Path:
    path = tmp_path / "specs.txt"
    path.write_text("toolz==0.12.0..0.12.1  # a pair\ntoolz==0.12..\n")
    return path


def test_pair_specs_and_the_previous_release(tmp_path: Path) -> None:
    assert read_specs(["toolz==0.12.0..0.12.1"]) == ["toolz==0.12.0..0.12.1"]
    assert parse_pair("toolz==0.12.0..0.12.1", "x") == Pair("toolz", "0.12.0", "0.12.1")
    with pytest.raises(SuiteError, match=r"import-suite pypi: 'toolz==0.12.1..0.12.0': the older release 0.12.1 "
                                          r"must come before 0.12.0"):
        read_specs(["toolz==0.12.1..0.12.0"])
    with pytest.raises(SuiteError, match=r"specs.txt:2: 'toolz==0.12..' is not NAME==OLD..NEW"):
        read_specs([str(_listing(tmp_path))])
    listed = ["2.0.0", "1.10.0", "1.9.0", "1.10.0rc1", "2.0.0b1", "0.9"]
    assert previous_release("p", "2.0.0", listed) == "1.10.0"
    assert previous_release("p", "1.10.0", listed) == "1.9.0"
    with pytest.raises(Refused, match="PyPI lists no release of p before 0.9"):
        previous_release("p", "0.9", listed)


def test_the_case_folder_holds_the_old_source_and_only_the_grader_has_the_new_tests(tmp_path: Path) -> None:
    old = _release(tmp_path / "old", OLD_CORE, "1.2.9", extra_test=False)
    new = _release(tmp_path / "new", NEW_CORE, "1.3.0", extra_test=True)
    layout = find_layout(new)
    split = split_diff(old, new, layout.paths)
    tests_dir = tmp_path / "grading"
    write_grading_files(new, layout, tests_dir, extra_args="--continue-on-collection-errors")
    assert "--continue-on-collection-errors tests" in (tests_dir / "run_tests.sh").read_text()
    failing = ["tests.test_core::test_high"]
    folder = write_pair_case(tmp_path / "suite", Pair("pkg", "1.2.9", "1.3.0"), old, tests_dir, "sha256:abc", split,
                             failing, ["tests.test_core::test_low"],
                             {failing[0]: "AssertionError: assert 9 == 5\ntests/test_core.py:7: AssertionError"},
                             find_entry(new, "1.3.0"), None)
    meta = tomllib.loads((folder / "case.toml").read_text())
    assert folder.name == "pkg-1.2.9-to-1.3.0" and meta["source"]["task_source"] == "release pair"
    assert (meta["source"]["version"], meta["source"]["new_version"]) == ("1.2.9", "1.3.0")
    assert meta["difficulty"] == {"label": "medium", "lines_changed": 4, "files_touched": 2, "failing_tests": 1}
    assert meta["tests"]["fail_to_pass"] == failing
    assert "test_high" not in (folder / "workspace" / "tests" / "test_core.py").read_text()
    assert "test_high" in (folder / "tests" / "pristine" / "tests" / "test_core.py").read_text()
    assert (folder / "workspace" / "pkg" / "core.py").read_text() == OLD_CORE
    text = (folder / "instruction.md").read_text()
    assert "assert 9 == 5" in text and "no longer returns the low bound" in text and "CHANGES.md" in text
    assert "if value > high" not in text  # never the diff
    assert not (folder / "solution" / "breaking_1.sh").exists()
