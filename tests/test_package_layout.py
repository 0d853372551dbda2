"""The installed namespace: every part imports as nightshift.<part>, and nothing finds the checkout by __file__."""

from __future__ import annotations

import re
import tomllib

import nightshift
from nightshift.experiment.manifest import _package_modules
from tests.conftest import REPO


def test_parts_match_the_package_dir_mapping() -> None:
    mapping = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    mapped = {name.removeprefix("nightshift.") for name in mapping if name != "nightshift"}
    assert nightshift.PARTS and mapped == set(nightshift.PARTS)
    assert all(mapping[f"nightshift.{part}"] == part for part in nightshift.PARTS)  # the card's folders stay on top


def test_no_module_imports_a_bare_top_level_part() -> None:
    bare = re.compile(rf"^\s*(from|import) ({'|'.join(nightshift.PARTS)})(\.|\s)", re.M)
    offenders = [str(p.relative_to(REPO)) for part in (*nightshift.PARTS, "nightshift", "tests", "bench", "scripts")
                 for p in (REPO / part).rglob("*.py")
                 if "builtin" not in p.parts and "fixtures" not in p.parts and bare.search(p.read_text())]
    assert offenders == []


def test_no_module_finds_the_repository_through_file() -> None:
    up = re.compile(r"__file__\)?\.resolve\(\)\.parent\.parent|dirname\(os\.path\.dirname\(.*__file__")
    offenders = [str(p.relative_to(REPO)) for part in (*nightshift.PARTS, "nightshift")
                 for p in (REPO / part).rglob("*.py") if "builtin" not in p.parts and up.search(p.read_text())]
    assert offenders == []


def test_code_version_covers_every_part() -> None:
    modules = set(_package_modules())
    assert {"nightshift.flows.nightly_eval", "nightshift.tasks.run_trial", "nightshift.sandbox.bubblewrap"} <= modules


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    # an editable install finds an unlisted subpackage through the folder mapping; a built wheel leaves it out
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {"nightshift." + ".".join(init.parent.relative_to(REPO).parts) for part in nightshift.PARTS
             for init in (REPO / part).rglob("__init__.py") if "builtin" not in init.parts}
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


def test_installed_data_is_told_apart_from_the_checkout(tmp_path) -> None:
    from nightshift.resources import is_installed

    assert not is_installed(REPO / "suites" / "builtin")  # a checkout's builtin suite takes a new record
    assert is_installed(tmp_path / "venv" / "lib" / "python3.11" / "site-packages" / "nightshift" / "suites")
