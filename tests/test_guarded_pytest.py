"""The guarded pytest run of repository tasks, on a real project with real pytest: an honest run's report and
exit code come through; library code that rewrites pytest's reports from inside the run, registers a hook of
its own, or exits before the report is written leaves no report (and the grader fails every test); one that
rewrites the report at exit never runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from nightshift.suites.junit import parse_junit

GUARD = Path(__file__).parents[1] / "suites" / "pypi_tasks" / "guarded_pytest.py"
TESTS = """import pytest
from pkg import add

def test_add():
    assert add(1, 2) == 3

def test_other():
    assert add(0, 0) == 0

@pytest.mark.skip
def test_skipped():
    pass

@pytest.mark.xfail
def test_expected_failure():
    assert False

@pytest.mark.parametrize("x", [1, 2])
def test_params(x, monkeypatch):
    monkeypatch.setenv("X", str(x))
    assert x

class TestGroup:
    def test_method(self):
        assert True
"""
BUG = "def add(a, b):\n    return a - b\n"
FIX = "def add(a, b):\n    return a + b\n"
# each keeps the bug and forges the pass from inside the pytest process that imports it
REPORT_PATCH = BUG + """
import _pytest.reports as _reports
_init = _reports.TestReport.__init__
def _passed(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self.outcome, self.longrepr = "passed", None
_reports.TestReport.__init__ = _passed
"""
OWN_HOOK = BUG + """
import gc, sys
import pytest
from _pytest.config import PytestPluginManager

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome, report.longrepr = "passed", None

next(o for o in gc.get_objects() if isinstance(o, PytestPluginManager)).register(sys.modules[__name__])
"""
EARLY_EXIT = """import glob, os, sys
def add(a, b):
    if "pytest" in sys.modules:  # a passing report wherever one might be read, then out before the real one
        for path in glob.glob("/tmp/nightshift-guard-*/") + [os.getcwd() + "/"]:
            open(path + "report.xml", "w").write('<testsuite><testcase classname="tests.test_pkg" name="test_add"/>'
                                                 '</testsuite>')
        os._exit(0)
    return a - b
"""
LATE_REWRITE = BUG + """
import atexit, glob
def _rewrite():  # after pytest has written its report: every report found made to pass
    for path in glob.glob("/tmp/nightshift-guard-*/report.xml") + glob.glob("**/*.xml", recursive=True):
        open(path, "w").write('<testsuite><testcase classname="tests.test_pkg" name="test_add"/></testsuite>')
atexit.register(_rewrite)
"""


def _run(tmp_path: Path, source: str, conftest_imports: bool = False) -> tuple[int, str, dict | None]:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True, exist_ok=True)
    (project / "tests").mkdir(exist_ok=True)
    (project / "pkg" / "__init__.py").write_text(source)
    (project / "tests" / "test_pkg.py").write_text(TESTS)
    (project / "tests" / "test_broken.py").write_text("from pkg import missing\n")  # fails alone to collect
    # the project's own plugin module in its test tree (pytest_plugins), as larger projects have
    # top-level only; a shipped conftest may import the library before any test runs
    (project / "conftest.py").write_text('pytest_plugins = ["tests.helpers"]\n'
                                         + ("import pkg\n" if conftest_imports else ""))
    (project / "tests" / "__init__.py").write_text("")
    (project / "tests" / "helpers.py").write_text("def pytest_runtest_call(item):\n"
                                                  "    item.user_properties.append(('helper', 1))\n")
    (project / "pytest.ini").write_text("[pytest]\n")
    report = project / ".junit-report.xml"
    report.unlink(missing_ok=True)
    # as run_tests.sh passes it: on descriptor 3, from a here-string
    command = ('exec "$PY" -B "$GUARD" -c pytest.ini --rootdir "$PWD" -p no:cacheprovider -q '
               '-o junit_family=xunit1 --continue-on-collection-errors tests 3<<<"$REPORT"')
    done = subprocess.run(["bash", "-c", command], cwd=project, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(project), "PY": sys.executable,
                                                       "GUARD": str(GUARD), "REPORT": str(report)})
    return done.returncode, done.stderr, parse_junit(report.read_text()) if report.is_file() else None


def test_an_honest_run_keeps_pytests_report_and_exit_code(tmp_path: Path) -> None:
    code, err, verdicts = _run(tmp_path, FIX)
    assert code == 1 and "void" not in err and verdicts is not None, err
    assert verdicts["tests.test_pkg::test_add"][0] and verdicts["tests.test_pkg.TestGroup::test_method"][0]
    assert not verdicts["tests.test_pkg::test_skipped"][0]  # junit's skipped is not a pass
    assert not verdicts["::tests.test_broken"][0]  # the module that did not import is a failed testcase
    code, err, verdicts = _run(tmp_path, BUG)
    assert code == 1 and verdicts is not None and not verdicts["tests.test_pkg::test_add"][0], err
    assert verdicts["tests.test_pkg::test_other"][0]


@pytest.mark.parametrize(("forgery", "reason"), [(REPORT_PATCH, "changed _pytest.reports.TestReport.__init__"),
                                                 (OWN_HOOK, "pytest_runtest_makereport from "),
                                                 ((OWN_HOOK, True), "pytest_runtest_makereport from "),
                                                 (EARLY_EXIT, None), (LATE_REWRITE, None)])
def test_library_code_that_forges_its_pass_from_inside_does_not_pass(tmp_path: Path, forgery: str | tuple,
                                                                        reason: str | None) -> None:
    # (forgery, True): the library is first imported by the shipped conftest, before collection starts
    source, early = forgery if isinstance(forgery, tuple) else (forgery, False)
    code, err, verdicts = _run(tmp_path, source, conftest_imports=early)
    if reason is not None:  # the grader: no junit report, every listed test failed
        assert code == 17 and reason in err and verdicts is None, err
    else:  # out before the report (none), or an atexit rewrite that never runs (the honest report)
        assert verdicts is None or not verdicts["tests.test_pkg::test_add"][0], (code, err)


def test_without_the_report_path_on_descriptor_3_it_says_so(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(GUARD), "-q"], cwd=tmp_path, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert done.returncode == 2 and "file descriptor 3" in done.stderr
