"""Grading: every built-in case's oracle resolves it and its empty solution does not."""

import pytest

from graders import PublicTestGrader
from graders.oracle import check_case
from nightshift.contracts import SandboxSpec
from nightshift.models import AgentOutcome, GradeResult, TestOutcome, TrialStatus
from sandbox.bubblewrap import BubblewrapBackend
from suites import load_cases
from tasks.run_trial import decide_status
from tests.conftest import BUILTIN

CASES = load_cases(BUILTIN)


def test_builtin_suite_shape() -> None:
    assert len(CASES) >= 20
    assert len({c.domain for c in CASES}) >= 3
    assert all(c.fail_to_pass for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_oracle_passes_and_empty_fails(case) -> None:
    check = check_case(case, BubblewrapBackend(), PublicTestGrader())
    assert check.ok, check.problems


def test_grader_runs_tests_only_after_copy_in_and_agent_cannot_see_them() -> None:
    case = CASES[0]
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id="t-hidden",
                                                     workspace_source=case.workspace_dir))
    try:
        assert sandbox.exec("ls /grader", timeout_s=10).exit_code != 0  # not there during the agent phase
        grade = PublicTestGrader().grade(case, sandbox)
        assert not grade.all_passed  # untouched workspace
        f2p_passed, f2p_total = grade.f2p
        assert f2p_passed == 0 and f2p_total == len(case.fail_to_pass)
        assert sandbox.exec("touch /grader/tests/x", timeout_s=10).exit_code != 0  # read-only for the agent
    finally:
        sandbox.destroy()


def test_sitecustomize_left_by_agent_cannot_rig_python_tests() -> None:
    case = next(c for c in CASES if any((c.tests_dir / f"test_{n}.py").is_file() for n in c.fail_to_pass))
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id="t-rig",
                                                     workspace_source=case.workspace_dir))
    try:
        sandbox.write_file("/workspace/sitecustomize.py", b"import os\nos._exit(0)\n")
        grade = PublicTestGrader().grade(case, sandbox)
        assert grade.f2p[0] < grade.f2p[1]
    finally:
        sandbox.destroy()


def _grade(*passed: bool) -> GradeResult:
    return GradeResult(tests=[TestOutcome(name=f"t{i}", kind="fail_to_pass", passed=p, duration_s=0)
                              for i, p in enumerate(passed)])


@pytest.mark.parametrize(("ended_by", "grade", "status"), [
    ("submitted", _grade(True, True), TrialStatus.resolved),
    ("submitted", _grade(True, False), TrialStatus.failed),
    ("step_limit", _grade(True, True), TrialStatus.step_limit),
    ("timeout", None, TrialStatus.timeout),
    ("infra_error", None, TrialStatus.infra_error),
])
def test_status_decision(ended_by, grade, status) -> None:
    assert decide_status(AgentOutcome(ended_by=ended_by), grade) == status
