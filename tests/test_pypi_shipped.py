"""The shipped repository suite without docker: its recipes are complete and small, and a machine that has not
built it gets an error naming the build command (the build itself: tests/test_pypi_tasks_end_to_end.py)."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path

import pytest

from nightshift.errors import SuiteError
from nightshift.suites import load_cases, resolve_suite
from nightshift.suites.loader import tree_hash
from nightshift.suites.pypi_tasks.case import WORKDIR, write_breaking
from nightshift.suites.pypi_tasks.mutate import unified_diff
from nightshift.suites.pypi_tasks.shipped import (
    _STAMP,
    SHIPPED,
    _build_case,
    build,
    build_hash,
    built_dir,
    built_suite,
    is_recipe,
    recipe_hash,
    ship,
)
from nightshift.suites.swebench import apply_script


def test_the_shipped_recipes_pin_every_package_and_hold_no_sdist() -> None:
    meta = tomllib.loads((SHIPPED / "suite.toml").read_text())
    pins = meta["shipped"]["sdist_sha256"]
    cases = sorted(p for p in SHIPPED.iterdir() if (p / "case.toml").is_file())
    specs, by_source = set(), {"injected bug": set(), "release pair": set()}
    for folder in cases:
        case = tomllib.loads((folder / "case.toml").read_text())
        spec, source = case["image"].removeprefix("pypi:"), case["source"]
        assert spec in pins and len(pins[spec]) == 64, folder
        assert source["workspace_hash"] and case["difficulty"]["label"] in ("easy", "medium", "hard")
        assert (folder / "solution" / "gold.patch").is_file() and (folder / "tests" / "run_tests.sh").is_file()
        assert not (folder / "workspace").exists() and not (folder / "tests" / "pristine").exists()
        if source["task_source"] == "release pair":  # graded by the newer sdist's tests: pinned and hashed too
            assert f"{source['package']}=={source['new_version']}" in pins and source["pristine_hash"], folder
            assert "--continue-on-collection-errors" in (folder / "tests" / "run_tests.sh").read_text()
        else:
            assert (folder / "solution" / "breaking_1.patch").is_file(), folder
        specs.add(spec)
        by_source[source["task_source"]].add((folder.name, source["package"]))
    labels = {tomllib.loads((f / "case.toml").read_text())["difficulty"]["label"] for f in cases}
    assert len(cases) >= 40 and len(specs) >= 8 and labels == {"easy", "medium", "hard"}
    # both task sources (issue 24); most pairs from packages the injected bugs do not use
    pairs, bugs = by_source["release pair"], by_source["injected bug"]
    new_packages = {name for _, name in pairs} - {name for _, name in bugs}
    assert len(bugs) >= 40 and len(pairs) >= 4 and len(new_packages) >= 3, (len(bugs), sorted(pairs))
    assert not list(SHIPPED.rglob("*.tar.gz")) and not list(SHIPPED.rglob("*.whl"))
    assert not list(SHIPPED.glob("*/solution/*.sh"))  # each is its patch in apply_script: the build writes them


def test_an_unbuilt_or_stale_shipped_suite_names_the_build_command(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("NIGHTSHIFT_SUITE_CACHE", str(tmp_path / "cache"))
    recipe = tmp_path / "pypi"
    first = sorted(p.name for p in SHIPPED.iterdir() if (p / "case.toml").is_file())[0]
    shutil.copytree(SHIPPED / first, recipe / first)
    shutil.copy2(SHIPPED / "suite.toml", recipe / "suite.toml")
    assert is_recipe(recipe)
    with pytest.raises(SuiteError, match="not built on this machine; run `nightshift build-suite"):
        resolve_suite(str(recipe))
    with pytest.raises(SuiteError, match="is a shipped recipe, not an image; run `nightshift build-suite"):
        load_cases(recipe)
    out = built_dir(recipe)
    out.mkdir(parents=True)
    (out / _STAMP).write_text(json.dumps({"recipe": recipe_hash(recipe)}))  # built before the helpers counted
    with pytest.raises(SuiteError, match="changed since it was built"):
        built_suite(recipe)
    (out / _STAMP).write_text(json.dumps({"recipe": build_hash(recipe)}))
    assert built_suite(recipe) == out and not is_recipe(out)
    (recipe / first / "tests" / ".ruff_cache").mkdir()  # a tool's cache beside the recipe is no change
    (recipe / first / "tests" / ".ruff_cache" / "x").write_text("x")
    assert built_suite(recipe) == out
    # a grading helper the build copies into every case (guarded_pytest.py) changed in the package: stale too
    import nightshift.suites.pypi_tasks.shipped as shipped

    fake = tmp_path / "helpers"
    fake.mkdir()
    for helper in shipped.GRADING_HELPERS:
        (fake / helper).write_text((Path(shipped.__file__).with_name(helper)).read_text() + "# changed\n")
    monkeypatch.setattr(shipped, "__file__", str(fake / "shipped.py"))
    with pytest.raises(SuiteError, match="changed since it was built"):
        built_suite(recipe)
    monkeypatch.undo()
    monkeypatch.setenv("NIGHTSHIFT_SUITE_CACHE", str(tmp_path / "cache"))
    assert built_suite(recipe) == out
    (recipe / first / "instruction.md").write_text("changed\n")
    with pytest.raises(SuiteError, match="changed since it was built"):
        resolve_suite(str(recipe))


def test_a_release_pair_recipe_must_name_and_pin_its_newer_release(tmp_path: Path) -> None:
    """Both refused before anything is downloaded or built (the build itself: tests/test_pypi_pairs_end_to_end.py)."""
    pair = next(p for p in sorted(SHIPPED.iterdir()) if (p / "case.toml").is_file()
                and tomllib.loads((p / "case.toml").read_text())["source"]["task_source"] == "release pair")
    source = tomllib.loads((pair / "case.toml").read_text())["source"]
    old, new = (f"{source['package']}=={v}" for v in (source["version"], source["new_version"]))
    pins = tomllib.loads((SHIPPED / "suite.toml").read_text())["shipped"]["sdist_sha256"]
    recipe = tmp_path / "recipe"
    shutil.copytree(pair, recipe / pair.name)
    (recipe / "suite.toml").write_text(f'name = "r"\n[shipped.sdist_sha256]\n"{old}" = "{pins[old]}"\n')
    with pytest.raises(SuiteError, match=rf"no pin for \['{new}'\].*a release pair pins both releases"):
        build(recipe, tmp_path / "built")
    meta = recipe / pair.name / "case.toml"
    meta.write_text(meta.read_text().replace(f'new_version = "{source["new_version"]}"\n', "", 1))
    with pytest.raises(SuiteError, match="field 'source.new_version' is missing"):
        build(recipe, tmp_path / "built")
    assert not (tmp_path / "built").exists()


def test_the_build_writes_the_apply_scripts_the_importer_writes_beside_the_patches(tmp_path: Path) -> None:
    """One case built from a recipe that keeps only the patches (a real gold patch reversed over a real source; no
    image, so no docker); a recipe or an imported case whose scripts are not the patches' is refused by name."""
    fixed, buggy = "def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a - b\n"
    source, grading, recipe = tmp_path / "sdist", tmp_path / "grading", tmp_path / "recipe"
    (source / "calc.py").parent.mkdir()
    (source / "calc.py").write_text(fixed)
    (grading / "pristine").mkdir(parents=True)
    folder = recipe / "calc-1.0-add"
    (folder / "solution").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "tests" / "run_tests.sh").write_text("python -m pytest\n")
    (folder / "case.toml").write_text('image = "pypi:calc==1.0"\n')
    gold = unified_diff("calc.py", buggy, fixed)
    (folder / "solution" / "gold.patch").write_text(gold)
    imported = tmp_path / "suite" / folder.name  # what case.py writes beside the patches
    shutil.copytree(folder, imported)
    (imported / "solution" / "solve.sh").write_text(apply_script(gold, WORKDIR))
    write_breaking(imported, unified_diff("calc.py", fixed, "def add(a, b):\r\n    return a * b\r\n"))
    shutil.copy2(imported / "solution" / "breaking_1.patch", folder / "solution")
    into = tmp_path / "built"
    _build_case(folder, {"image": "pypi:calc==1.0"}, into, source, grading, "sha256:x", None)
    assert tree_hash(into / "solution") == tree_hash(imported / "solution")  # the breaking patch's \r\n kept
    assert sorted(p.name for p in (into / "solution").iterdir()) == ["breaking_1.patch", "breaking_1.sh", "gold.patch",
                                                                     "solve.sh"]
    assert (into / "workspace" / "calc.py").read_text() == buggy

    (recipe / "suite.toml").write_text('name = "r"\n[shipped.sdist_sha256]\n"calc==1.0" = "0"\n')
    shutil.copy2(imported / "solution" / "solve.sh", folder / "solution")
    with pytest.raises(SuiteError, match=r"calc-1.0-add/solution/solve.sh: a shipped recipe keeps only the patches"):
        build(recipe, tmp_path / "out")
    (folder / "solution" / "solve.sh").unlink()
    (folder / "solution" / "gold.patch").unlink()
    with pytest.raises(SuiteError, match=r"calc-1.0-add/solution/gold.patch: missing"):
        build(recipe, tmp_path / "out")
    script = imported / "solution" / "breaking_1.sh"
    script.write_text(script.read_text().replace("a * b", "a / b"))
    with pytest.raises(SuiteError, match=r"solution/breaking_1.sh: not the apply script of the patch beside it"):
        ship([tmp_path / "suite"], tmp_path / "shipped")
    assert not (tmp_path / "out").exists() and not list((tmp_path / "shipped").iterdir())
