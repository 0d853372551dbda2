"""The junit verdict of a test runner (log_format = "junit"): only the report at the grader's path counts, and
only when pytest's exit code agrees with it; printed lines never do. A scripted sandbox plays the runner."""

from __future__ import annotations

from pathlib import Path

import pytest

from nightshift.graders.public_tests import run_public_tests
from nightshift.models import Case, ExecResult

REPORT = ('<testsuites><testsuite>'
          '<testcase classname="tests.test_a" name="test_fixed"{fixed}</testcase>'
          '<testcase classname="tests.test_a" name="test_kept"></testcase>'
          '<testcase classname="tests.test_a" name="test_skip"><skipped/></testcase>'
          '</testsuite></testsuites>')
FAILURE = '><failure message="assert 1 == 2"/>'


class ScriptedRunner:
    """A sandbox whose test runner exits ``code`` after writing ``report`` where the grader asked."""

    def __init__(self, report: str | None, code: int):
        self.report, self.code, self.files = report, code, {}

    def copy_in(self, host_dir: Path, sandbox_dir: str) -> None:
        pass

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace", env: dict | None = None) -> ExecResult:
        if command.startswith("rm -f "):
            self.files.pop(command.split()[-1], None)
            return ExecResult(exit_code=0, stdout="", stderr="")
        path = (env or {})["NIGHTSHIFT_JUNIT"]
        assert path.startswith("/workspace/.nightshift-junit-")  # a fresh name per grading
        if self.report is not None:
            self.files[path] = self.report.encode()
        return ExecResult(exit_code=self.code, stdout="PASSED tests.test_a::test_fixed\n", stderr="")

    def read_file(self, path: str) -> bytes:
        if path not in self.files:
            raise FileNotFoundError(path)
        return self.files[path]


@pytest.fixture
def case(tmp_path: Path) -> Case:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "run_tests.sh").write_text("")
    return Case(id="c", suite="s", domain="d", instruction="", root=tmp_path, content_hash="x",
                fail_to_pass=["tests.test_a::test_fixed"], pass_to_pass=["tests.test_a::test_kept"],
                test_runner="run_tests.sh", test_log_format="junit")


def _verdicts(case: Case, box: ScriptedRunner) -> dict[str, bool]:
    outcomes = run_public_tests(case, box)  # type: ignore[arg-type]
    assert not box.files  # the report is deleted after reading: it is no part of the agent's diff
    return {t.name: t.passed for t in outcomes}


def test_a_report_that_agrees_with_the_exit_code_decides_each_test(case: Case) -> None:
    assert _verdicts(case, ScriptedRunner(REPORT.format(fixed=">"), 0)) == {
        "tests.test_a::test_fixed": True, "tests.test_a::test_kept": True}
    assert _verdicts(case, ScriptedRunner(REPORT.format(fixed=FAILURE), 1)) == {
        "tests.test_a::test_fixed": False, "tests.test_a::test_kept": True}


@pytest.mark.parametrize("report, code", [
    (REPORT.format(fixed=">"), 1),  # a report rewritten to all-pass while pytest saw a failure
    (REPORT.format(fixed=FAILURE), 0),
    (None, 0),  # no report: the printed PASSED line is not read
    (REPORT.format(fixed=">"), 2),  # interrupted / collection error
    ("<testsuites><testcase", 0),
])
def test_a_missing_unreadable_or_contradicted_report_fails_every_test(case: Case, report: str | None,
                                                                       code: int) -> None:
    assert _verdicts(case, ScriptedRunner(report, code)) == {
        "tests.test_a::test_fixed": False, "tests.test_a::test_kept": False}


def test_a_run_the_guard_voided_fails_every_test_and_says_why(case: Case) -> None:
    from nightshift.suites.pypi_tasks import guarded_pytest

    box = ScriptedRunner(REPORT.format(fixed=">"), guarded_pytest.VOID)  # a report left behind: still not read
    outcomes = run_public_tests(case, box)  # type: ignore[arg-type]
    assert not any(t.passed for t in outcomes)
    assert all("the run is void (exit 17)" in t.detail for t in outcomes)
