"""The pieces of the PyPI repository-task importer on real files: bug injection and its gold patch, the junit
reader, the grading-time restore of pristine tests, and the refusals a user sees."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from nightshift.errors import SuiteError
from nightshift.suites.junit import JunitError, parse_junit
from nightshift.suites.pypi_tasks import layout as layout_mod
from nightshift.suites.pypi_tasks.download import Refused, read_specs
from nightshift.suites.pypi_tasks.mutate import mutations

SOURCE = '''\
def clamp(value, low, high):
    if value < low:
        return low
    if value > high:
        return high
    return value


def scale(values, factor=2):
    return [v * factor for v in values]


def pick(items, flag=True):
    return divmod(len(items), 2) if flag else None
'''


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text(SOURCE)
    return root


def test_each_mutation_changes_one_function_compiles_and_its_gold_patch_restores_the_original(tmp_path: Path) -> None:
    root = _project(tmp_path)
    found = list(mutations(root, [root / "pkg" / "core.py"], seed=1))
    assert {m.function for m in found} == {"clamp", "scale", "pick"}  # one per function
    kinds = set()
    for mutation in found:
        kinds.add(mutation.kind)
        compile(mutation.mutated_text, "mutant", "exec")
        assert mutation.mutated_text != SOURCE
        work = tmp_path / f"work-{mutation.function}"
        (work / "pkg").mkdir(parents=True)
        (work / "pkg" / "core.py").write_text(mutation.mutated_text)
        gold = mutation.gold_patch(SOURCE)
        changed = [line for line in gold.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
        assert 1 <= len(changed) <= 8, gold  # a small change, not a reformatted file
        subprocess.run(["patch", "-p1", "--batch", "-s"], input=gold, text=True, cwd=work, check=True)
        assert (work / "pkg" / "core.py").read_text() == SOURCE
    assert kinds  # at least one kind applied; the set depends on the seed


def test_the_junit_reader_tells_passed_failed_and_skipped_apart_and_refuses_entities() -> None:
    xml = ('<testsuites><testsuite name="pytest">'
           '<testcase classname="tests.test_a" name="test_ok" time="0.5"/>'
           '<testcase classname="tests.test_a" name="test_bad" time="0.1"><failure message="assert 1 == 2">tb'
           '</failure></testcase>'
           '<testcase classname="tests.test_a" name="test_skip"><skipped message="no"/></testcase>'
           '<testcase classname="tests.test_a" name="test_err"><error message="boom"/></testcase>'
           '</testsuite></testsuites>')
    found = parse_junit(xml)
    assert found["tests.test_a::test_ok"] == (True, 0.5, "", False)
    assert found["tests.test_a::test_bad"][0] is False and found["tests.test_a::test_bad"][3] is True
    assert "assert 1 == 2" in found["tests.test_a::test_bad"][2]
    assert found["tests.test_a::test_skip"][0] is False and found["tests.test_a::test_skip"][3] is False
    assert found["tests.test_a::test_err"][3] is True
    with pytest.raises(JunitError, match="DOCTYPE"):
        parse_junit('<!DOCTYPE x [<!ENTITY a "b">]><testsuites/>')
    with pytest.raises(JunitError, match="root element"):
        parse_junit("<html/>")


def test_restore_puts_pristine_tests_back_and_discards_hooks_the_agent_added(tmp_path: Path) -> None:
    pristine, work = tmp_path / "pristine", tmp_path / "workspace"
    (pristine / "tests").mkdir(parents=True)
    (pristine / "tests" / "test_x.py").write_text("def test_x():\n    assert True\n")
    (pristine / "tests" / "conftest.py").write_text("# shipped\n")
    (pristine / "pkg" / "tests").mkdir(parents=True)
    (pristine / "pkg" / "tests" / "test_y.py").write_text("def test_y():\n    assert True\n")
    (pristine / "paths.txt").write_text("tests\npkg/tests\n")  # a test tree inside the package (toolz)
    (work / "tests").mkdir(parents=True)
    (work / "tests" / "test_x.py").write_text("def test_x():\n    pass  # edited\n")
    (work / "tests" / "test_added.py").write_text("")
    (work / "conftest.py").write_text("def pytest_runtest_makereport(): ...\n")
    (work / "pkg").mkdir()
    (work / "pkg" / "core.py").write_text("the agent's fix\n")
    (work / "pkg" / "sitecustomize.py").write_text("")
    (work / "evil.pth").write_text("import os\n")
    (work / ".git").mkdir()
    (work / "keep.py").write_text("x = 1\n")
    script = Path(layout_mod.__file__).with_name("restore_tests.py")
    done = subprocess.run([sys.executable, "-I", str(script), str(pristine), str(work)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (work / "tests" / "test_x.py").read_text() == "def test_x():\n    assert True\n"
    assert not (work / "tests" / "test_added.py").exists()
    assert (work / "tests" / "conftest.py").read_text() == "# shipped\n"
    for gone in ("conftest.py", "pkg/sitecustomize.py", "evil.pth", ".git"):
        assert not (work / gone).exists(), gone
        assert gone in done.stderr  # named in the grading log
    assert (work / "keep.py").is_file()
    assert (work / "pkg" / "core.py").read_text() == "the agent's fix\n"  # only the test tree was replaced
    assert (work / "pkg" / "tests" / "test_y.py").is_file()


def test_specs_are_exact_pins_and_a_bad_line_names_its_file_and_line(tmp_path: Path) -> None:
    listing = tmp_path / "packages.txt"
    listing.write_text("# two packages\nmore-itertools==10.2.0\ntoolz>=0.12\n")
    with pytest.raises(SuiteError, match=r"packages.txt:3: 'toolz>=0.12' is not NAME==VERSION"):
        read_specs([str(listing)])
    listing.write_text("more-itertools==10.2.0  # small\n")
    assert read_specs([str(listing), "tomli==2.0.1"]) == ["more-itertools==10.2.0", "tomli==2.0.1"]
    with pytest.raises(SuiteError, match="at least one package"):
        read_specs([])


def test_a_project_without_tests_is_refused_with_the_reason(tmp_path: Path) -> None:
    root = _project(tmp_path)
    with pytest.raises(Refused, match="ships no tests"):
        layout_mod.find_layout(root)
    (root / "tests").mkdir()
    (root / "tests" / "test_core.py").write_text("")
    (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\naddopts = '-q'\n")
    found = layout_mod.find_layout(root)
    assert found.paths == ["tests"] and found.config == "pyproject.toml"


def test_a_breaking_patch_is_the_gold_fix_plus_another_bug(tmp_path: Path) -> None:
    from nightshift.suites.pypi_tasks.case import breaking_patch

    root = _project(tmp_path)
    (root / "pkg" / "other.py").write_text("def double(x):\n    return x * 2\n")
    first, second = list(mutations(root, [root / "pkg" / "core.py"], seed=1))[:2]
    (other,) = [m for m in mutations(root, [root / "pkg" / "other.py"]) if m.function == "double"][:1]
    for mine, theirs, files in ((first, second, {"pkg/core.py": second.mutated_text}),  # same file
                                (first, other, {"pkg/core.py": SOURCE, "pkg/other.py": other.mutated_text})):
        work = tmp_path / f"w-{theirs.function}"
        (work / "pkg").mkdir(parents=True)
        (work / "pkg" / "core.py").write_text(mine.mutated_text)
        (work / "pkg" / "other.py").write_text((root / "pkg" / "other.py").read_text())
        subprocess.run(["patch", "-p1", "--batch", "-s"], input=breaking_patch(root, mine, theirs), text=True,
                       cwd=work, check=True)
        for rel, text in files.items():
            assert (work / rel).read_text() == text


def test_only_the_pypi_importer_takes_several_sources(tmp_path: Path, capsys) -> None:
    from nightshift.cli import main

    assert main(["import-suite", "swebench", "a.jsonl", "b.jsonl", str(tmp_path / "out")]) == 2
    assert "import-suite swebench: give one source, not 2 (a.jsonl, b.jsonl)" in capsys.readouterr().out
    assert main(["import-suite", "pypi", "toolz>=1", str(tmp_path / "out")]) == 2
    assert "'toolz>=1' is not NAME==VERSION" in capsys.readouterr().out
    assert not (tmp_path / "out").exists()


def test_a_copy_is_named_by_the_projects_top_level_import_names(tmp_path: Path) -> None:
    from nightshift.suites.pypi_tasks.image import import_names

    root = tmp_path / "src-proj"
    files = {"src/pkg/__init__.py": "", "src/pkg/sub/x.py": "", "single.py": "def f():\n    pass\nclass C:\n    pass\n",
             "bin/tool.py": "def main():\n    pass\n", "tests/test_a.py": "", "odd-name/y.py": "",
             "empty.py": "x = 1\n"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    listed = [root / rel for rel in files if not rel.startswith("tests/")]
    names = import_names(root, [*listed, tmp_path / "elsewhere.py"])  # another release's file names nothing
    # bin/ is no package (jmespath's bin/jp.py); a module that defines nothing cannot be told from another file
    assert names.packages == ["pkg"] and names.modules == {"single": ["C", "f"]}


def test_the_toolchain_leaves_the_image_unless_the_tests_require_it(tmp_path: Path) -> None:
    from nightshift.suites.pypi_tasks.download import Project
    from nightshift.suites.pypi_tasks.image import SYSTEM_WHEELS, _toolchain_removal

    plain = Project(name="a", version="1", source=tmp_path, wheelhouse=tmp_path,
                    test_requirements=["pytest-mock>=3"], build_requirements=["setuptools>=61"])
    removal = _toolchain_removal(plain)
    assert [c.rsplit(" ", 1)[-1] for c in removal[:-1]] == ["setuptools", "wheel", "pip"]  # pip last
    assert removal[-1] == f"if [ -d {SYSTEM_WHEELS} ]; then chmod 0700 {SYSTEM_WHEELS}; fi"
    needs = Project(name="b", version="1", source=tmp_path, wheelhouse=tmp_path,
                    test_requirements=["Setuptools ; python_version >= '3'"], build_requirements=[])
    assert [c.rsplit(" ", 1)[-1] for c in _toolchain_removal(needs)[:-1]] == ["wheel", "pip"]
