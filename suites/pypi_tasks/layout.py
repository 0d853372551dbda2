"""Where a project's tests and pytest configuration are in its sdist, and the grading files made from them.

The grader trusts only what is copied in from the case's tests/ folder at grading (``pristine/``): the test
trees, a root conftest.py, and the pytest configuration file. ``run_tests.sh`` puts them back over
/workspace, discards files the agent added that change how tests run, and runs pytest with that
configuration and a junit XML report at the path the grader names.
"""

from __future__ import annotations

import configparser
import shlex
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from nightshift.suites.pypi_tasks.download import Refused

TEST_DIRS = ("tests", "test", "testing", "t")
_NOT_SOURCE = {"docs", "doc", "examples", "benchmarks", "bench", "scripts", "tools", "build", "dist"}
# root scripts that build, test or release a project; any other root module is the project's (six.py)
ROOT_TOOLING = {"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "tasks.py", "dodo.py", "ez_setup.py",
                "distribute_setup.py", "versioneer.py", "runtests.py", "run_tests.py", "bootstrap.py", "manage.py",
                "hatch_build.py", "build.py", "setupbase.py", "release.py", "conf.py"}
GRADING_HELPERS = ("restore_tests.py", "guarded_pytest.py")  # copied into every case's tests/ from here
CONFIG_FILES = ("pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")


@dataclass(frozen=True)
class TestLayout:
    paths: list[str]  # test folders and files, relative to the source root
    config: str | None  # the file holding the pytest configuration, if the project has one

    def pristine(self) -> list[str]:
        return [*self.paths, *(["conftest.py"] if "conftest.py" not in self.paths else [])]


def _has_pytest_section(path: Path) -> bool:
    try:
        if path.name == "pytest.ini":
            return True
        if path.name == "pyproject.toml":
            return "ini_options" in tomllib.loads(path.read_text()).get("tool", {}).get("pytest", {})
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(path.read_text(errors="replace"))
        return parser.has_section("pytest" if path.name == "tox.ini" else "tool:pytest")
    except (tomllib.TOMLDecodeError, configparser.Error, UnicodeDecodeError):
        return False


def find_layout(source: Path) -> TestLayout:
    """The project's tests; Refused when its sdist ships none."""
    paths = [d for d in TEST_DIRS if (source / d).is_dir() and any((source / d).rglob("test*.py"))]
    nested_dirs = [p for d in TEST_DIRS for p in [*source.glob(f"src/*/{d}"), *source.glob(f"*/{d}")]]
    for nested in sorted(set(nested_dirs)):  # tests inside the package: toolz/tests, dateutil/test
        inside_tests = nested.relative_to(source).parts[0] in paths  # tests/test is part of tests
        if nested.is_dir() and not inside_tests and any(nested.rglob("test*.py")):
            paths.append(nested.relative_to(source).as_posix())
    paths += sorted(p.name for p in source.glob("test_*.py"))
    if not paths:
        raise Refused("its sdist ships no tests (no tests/ or test/ folder, no test_*.py)")
    config = next((name for name in CONFIG_FILES if (source / name).is_file()
                   and _has_pytest_section(source / name)), None)
    return TestLayout(paths=sorted(set(paths)), config=config)


def _addopts(path: Path) -> str | None:
    try:
        if path.name == "pyproject.toml":
            value = tomllib.loads(path.read_text())["tool"]["pytest"]["ini_options"].get("addopts")
            return " ".join(value) if isinstance(value, list) else value
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(path.read_text(errors="replace"))
        section = "pytest" if path.name in ("tox.ini", "pytest.ini") else "tool:pytest"
        return parser.get(section, "addopts", fallback=None)
    except (tomllib.TOMLDecodeError, configparser.Error, KeyError, UnicodeDecodeError):
        return None


def coverage_free_addopts(path: Path) -> str | None:
    """The config's addopts without pytest-cov's options, or None when it has none: coverage is not what a
    task measures, and pytest-cov is rarely among the declared test requirements (wcwidth's tox.ini)."""
    value = _addopts(path)
    if not value or "--cov" not in value and "--no-cov" not in value:
        return None
    kept, tokens = [], shlex.split(value)
    skip = False
    for token in tokens:
        if skip:
            skip = False
            if not token.startswith("-"):
                continue
        if token.startswith(("--cov", "--no-cov")):
            skip = "=" not in token and token in ("--cov-report", "--cov-config", "--cov-fail-under")
            continue
        kept.append(token)
    return " ".join(shlex.quote(t) for t in kept)


def source_files(source: Path, test_paths: list[str]) -> list[Path]:
    """The project's own Python modules: in packages, under src/, or at the root (a single-module project)."""
    tests = [source / p for p in test_paths]
    found = []
    for path in sorted(source.rglob("*.py")):
        rel = path.relative_to(source)
        if (rel.parts[0] in _NOT_SOURCE or path.name == "conftest.py" or path.name.startswith("test_")
                or path.name.endswith("_test.py") or any(path.is_relative_to(t) for t in tests)
                or (len(rel.parts) == 1 and path.name in ROOT_TOOLING)):
            continue
        found.append(path)
    return found


def write_grading_files(source: Path, layout: TestLayout, tests_dir: Path, extra_args: str = "") -> None:
    """tests/pristine/ (the test trees and config as shipped), restore_tests.py and run_tests.sh (with pytest
    ``extra_args`` before the test paths)."""
    pristine = tests_dir / "pristine"
    shutil.rmtree(pristine, ignore_errors=True)
    pristine.mkdir(parents=True)
    shipped = []
    for rel in layout.pristine():
        src = source / rel
        if src.is_dir():
            shutil.copytree(src, pristine / rel, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.is_file():
            (pristine / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, pristine / rel)
        else:
            continue
        shipped.append(rel)
    (pristine / "paths.txt").write_text("\n".join(shipped) + "\n")  # exactly what restore_tests.py replaces
    config_dir = tests_dir / "config"
    shutil.rmtree(config_dir, ignore_errors=True)
    config_dir.mkdir()
    config_name = layout.config or "pytest.ini"
    if layout.config:
        shutil.copy2(source / layout.config, config_dir / config_name)
    else:
        (config_dir / config_name).write_text("[pytest]\n")
    for helper in GRADING_HELPERS:
        shutil.copy2(Path(__file__).with_name(helper), tests_dir / helper)
    addopts = coverage_free_addopts(source / layout.config) if layout.config else None
    options = [*extra_args.split(), *(["-o", f"addopts={addopts}"] if addopts is not None else [])]
    paths = " ".join(shlex.quote(a) for a in [*options, *layout.paths])
    (tests_dir / "run_tests.sh").write_text(RUN_TESTS.format(config=config_name, paths=paths))


RUN_TESTS = """#!/usr/bin/env bash
# Grade a repository task: the pristine tests and pytest configuration, then pytest with a junit XML report.
# The verdict is read from that report and this script's exit code (pytest's), never from printed lines;
# guarded_pytest.py voids both when the code under test tampered with the run (docs/SUITES.md).
cd /workspace || exit 2
report=${{NIGHTSHIFT_JUNIT:?the grader names the junit report path in NIGHTSHIFT_JUNIT}}
unset NIGHTSHIFT_JUNIT  # the code under test must not learn where the report goes
rm -f "$report"
/opt/venv/bin/python -I /grader/tests/restore_tests.py /grader/tests/pristine /workspace || exit 3
exec /opt/venv/bin/python -I -B /grader/tests/guarded_pytest.py -c /grader/tests/config/{config} --rootdir /workspace \\
    --confcutdir /workspace -p no:cacheprovider -q \\
    -o junit_family=xunit1 {paths} 3<<<"$report"
"""
