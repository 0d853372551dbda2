"""Check that a case can be graded at all: its oracle must pass every test, the untouched workspace
must fail every FAIL_TO_PASS test and pass every PASS_TO_PASS test. A case that breaks this would
turn every comparison that includes it into noise."""

from __future__ import annotations

from dataclasses import dataclass, field

from nightshift.contracts import Grader, SandboxBackend, SandboxSpec
from nightshift.models import Case, GradeResult


@dataclass
class CaseCheck:
    case_id: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _grade_after(case: Case, backend: SandboxBackend, grader: Grader, script: str | None) -> GradeResult:
    sandbox = backend.create(SandboxSpec(run_id="validate", trial_id=f"validate-{case.id}",
                                         workspace_source=case.workspace_dir))
    try:
        if script is not None:
            result = sandbox.exec(script, timeout_s=case.limits.wall_clock_s)
            if result.exit_code != 0:
                raise RuntimeError(f"oracle exited {result.exit_code}: {(result.stdout + result.stderr)[-300:]}")
        return grader.grade(case, sandbox)
    finally:
        sandbox.destroy()


def check_case(case: Case, backend: SandboxBackend, grader: Grader) -> CaseCheck:
    check = CaseCheck(case.id)
    try:
        oracle = _grade_after(case, backend, grader, case.solution_script.read_text())
    except RuntimeError as exc:
        check.problems.append(str(exc))
        return check
    check.problems += [f"oracle fails {t.kind} test {t.name}: {t.detail[-200:]}" for t in oracle.tests if not t.passed]
    empty = _grade_after(case, backend, grader, None)
    for test in empty.tests:
        if test.kind == "fail_to_pass" and test.passed:
            check.problems.append(f"FAIL_TO_PASS test {test.name} already passes on the starting workspace")
        if test.kind == "pass_to_pass" and not test.passed:
            check.problems.append(f"PASS_TO_PASS test {test.name} fails on the starting workspace")
    return check
