"""Grading: every built-in case validates; tests reach the sandbox only after the agent; status and progress."""

import pytest

from nightshift.contracts import SandboxSpec
from nightshift.graders import CaseGrader
from nightshift.graders.validate import validate_cases
from nightshift.models import AgentOutcome, GradeResult, TestOutcome, TrialStatus
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from nightshift.tasks.run_trial import decide_status
from tests.conftest import BUILTIN

CASES = load_cases(BUILTIN)


def test_builtin_suite_shape() -> None:
    assert len(CASES) >= 46
    assert len({c.domain for c in CASES}) >= 9
    assert all(c.fail_to_pass for c in CASES)
    long_horizon = [c for c in CASES if c.checkpoints]
    assert len(long_horizon) >= 5 and all(c.limits.max_steps >= 30 for c in long_horizon)
    assert len([c for c in CASES if c.hidden]) >= 4


def test_every_builtin_case_validates() -> None:
    """Oracle resolves (public, hidden, checkpoints), the untouched workspace fails every FAIL_TO_PASS test."""
    result = validate_cases(CASES, BubblewrapBackend(), repeats=1)
    problems = {c.case_id: c.problems for c in result.checks if not c.ok}
    assert not problems, problems
    assert len(result.checks) == len(CASES)
    assert all(c.oracle and c.oracle.progress == 1.0 for c in result.checks)
    assert all(c.empty and c.empty.progress < 1.0 for c in result.checks)


def test_grader_runs_tests_only_after_copy_in_and_agent_cannot_see_them() -> None:
    case = next(c for c in CASES if c.hidden)
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id="t-hidden",
                                                     workspace_source=case.workspace_dir))
    try:
        assert sandbox.exec("ls /grader/tests /grader/hidden", timeout_s=10).exit_code != 0  # agent phase
        grade = CaseGrader().grade(case, sandbox)
        assert not grade.all_passed  # untouched workspace
        f2p_passed, f2p_total = grade.f2p
        assert f2p_passed == 0 and f2p_total == len(case.fail_to_pass)
        assert grade.hidden[1] > 0
        assert sandbox.exec("ls /grader/hidden", timeout_s=10).exit_code == 0  # copied in at grading
        assert sandbox.exec("touch /grader/tests/x", timeout_s=10).exit_code != 0  # read-only for the agent
    finally:
        sandbox.destroy()


def test_sitecustomize_left_by_agent_cannot_rig_python_tests() -> None:
    case = next(c for c in CASES if any((c.tests_dir / f"test_{n}.py").is_file() for n in c.fail_to_pass))
    sandbox = BubblewrapBackend().create(SandboxSpec(run_id="r", trial_id="t-rig",
                                                     workspace_source=case.workspace_dir))
    try:
        sandbox.write_file("/workspace/sitecustomize.py", b"import os\nos._exit(0)\n")
        grade = CaseGrader().grade(case, sandbox)
        assert grade.f2p[0] < grade.f2p[1]
    finally:
        sandbox.destroy()


def _outcome(name: str, kind: str, passed: bool, **extra) -> TestOutcome:
    return TestOutcome(name=name, kind=kind, passed=passed, duration_s=0, **extra)


def _grade(*passed: bool) -> GradeResult:
    return GradeResult(tests=[_outcome(f"t{i}", "fail_to_pass", p) for i, p in enumerate(passed)])


@pytest.mark.parametrize(("ended_by", "grade", "status"), [
    ("submitted", _grade(True, True), TrialStatus.resolved),
    ("submitted", _grade(True, False), TrialStatus.failed),
    ("submitted", GradeResult(tests=[_outcome("a", "fail_to_pass", True), _outcome("h[0]", "hidden", False)]),
     TrialStatus.failed),
    ("submitted", GradeResult(tests=[_outcome("a", "fail_to_pass", True),
                                     _outcome("f", "pass_to_pass", False, excluded=True)]), TrialStatus.resolved),
    ("step_limit", _grade(True, True), TrialStatus.step_limit),
    ("timeout", None, TrialStatus.timeout),
    ("infra_error", None, TrialStatus.infra_error),
])
def test_status_decision(ended_by, grade, status) -> None:
    assert decide_status(AgentOutcome(ended_by=ended_by), grade) == status


def test_progress_from_checkpoints_is_their_weighted_share() -> None:
    grade = GradeResult(tests=[_outcome("a", "fail_to_pass", False), _outcome("s1", "checkpoint", True, weight=1),
                               _outcome("s2", "checkpoint", False, weight=2),
                               _outcome("s3", "checkpoint", True, weight=1)])
    assert grade.progress == 0.5 and grade.checkpoints == (2, 3)


def test_progress_without_checkpoints_counts_goals_and_penalises_regressions() -> None:
    tests = [_outcome("a", "fail_to_pass", True), _outcome("b", "fail_to_pass", False),
             _outcome("h[0]", "hidden", True), _outcome("h[1]", "hidden", True),
             _outcome("keep", "pass_to_pass", True), _outcome("keep2", "pass_to_pass", True)]
    assert GradeResult(tests=tests).progress == 0.75
    tests[-1] = _outcome("keep2", "pass_to_pass", False)
    assert GradeResult(tests=tests).progress == 0.375  # half the PASS_TO_PASS tests broken: half the credit
    partial = GradeResult(tests=[_outcome("harbor", "fail_to_pass", False, reward=0.5)])
    assert partial.progress == 0.5
    assert _grade(True, True).progress == 1.0 and _grade(False).progress == 0.0


def test_excluded_tests_are_reported_not_counted() -> None:
    grade = GradeResult(tests=[_outcome("a", "fail_to_pass", True),
                               _outcome("flaky", "fail_to_pass", False, excluded=True)])
    assert grade.f2p == (1, 1) and grade.excluded == ["flaky"] and grade.all_passed


def test_a_sandbox_that_fails_to_destroy_still_yields_its_row(monkeypatch) -> None:
    """The grade stands and the row is written; the failure is named in the reason."""
    from nightshift.experiment.config import Variant
    from nightshift.experiment.trials import TrialSpec
    from nightshift.tasks.run_trial import TrialContext, execute_trial

    class NoModel:
        calls = input_tokens = output_tokens = rate_limited = 0
        retry_wait_s = quota_wait_s = cost_usd = 0.0

        def api_slot(self):
            import contextlib

            return contextlib.nullcontext()

        def chat(self, **_):
            return {"message": {"role": "assistant", "content": "done", "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "submit", "arguments": "{}"}}]},
                "model": "m", "finish_reason": "tool_calls"}

    class Gateway:
        def session(self):
            return NoModel()

    backend = BubblewrapBackend()
    created = []
    real_create = backend.create

    def create(spec):
        sandbox = real_create(spec)
        created.append(sandbox)
        real_destroy = sandbox.destroy

        def broken():
            real_destroy()
            raise OSError("device busy")
        sandbox.destroy = broken
        return sandbox

    monkeypatch.setattr(backend, "create", create)
    case = CASES[0]
    spec = TrialSpec(trial_id="t-destroy", run_id="r", case=case, variant=Variant(name="v", model="m"), seed=1,
                     model_version="m")
    import tempfile
    from pathlib import Path

    ctx = TrialContext(run_dir=Path(tempfile.mkdtemp()), backend=backend, gateway=Gateway(),
                       limits=SandboxSpec(run_id="r", trial_id="t").limits, grader=CaseGrader())
    row = execute_trial(spec, ctx)
    assert created and row.status == TrialStatus.failed  # submitted an untouched workspace: graded, not infra
    assert "sandbox destroy failed: OSError: device busy" in row.reason


def test_named_rewards_a_verifier_reports_become_named_scores() -> None:
    from nightshift.graders.case_grader import reported_scores
    from nightshift.models import TestOutcome

    tests = [TestOutcome(name="test.sh", kind="fail_to_pass", passed=True, duration_s=1,
                         scores={"reward": 1.0, "Accuracy %": 0.75}),
             TestOutcome(name="flaky", kind="pass_to_pass", passed=False, duration_s=1, excluded=True,
                         scores={"reward": 0.0}),
             TestOutcome(name="plain", kind="pass_to_pass", passed=True, duration_s=1)]
    assert reported_scores(tests) == {"reward": 1.0, "reward_accuracy": 0.75}  # excluded tests don't count
