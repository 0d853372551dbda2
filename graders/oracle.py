"""Check that a case can be graded at all, before any trial depends on it.

The oracle (solution/solve.sh) must pass every public test, every hidden test and every checkpoint,
and it runs ``repeats`` times in fresh sandboxes: a test whose answer changes between repeats is
flaky, reported, and excluded from scoring (never silently scored). The untouched workspace must
fail every FAIL_TO_PASS test and pass every PASS_TO_PASS test. Every alternative correct solution
the case ships (solution/alt_*.sh, written differently from the oracle) must pass every test too:
the hidden tests' expected outputs come from the oracle, so an alternative that fails one shows an
unfair test (an input outside the problem's contract) that no oracle check can reveal. A case that
breaks this would turn every comparison that includes it into noise.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from nightshift.contracts import Grader, SandboxBackend, SandboxLimits
from nightshift.errors import SuiteError
from nightshift.graders.images import case_sandbox_spec, image_problem
from nightshift.graders.logs import fold
from nightshift.models import Case, GradeResult, TestOutcome


@dataclass
class CaseCheck:
    """What validation found for one case; ``oracle`` is the first repeat, ``empty`` the untouched run."""

    case_id: str
    problems: list[str] = field(default_factory=list)
    flaky: list[str] = field(default_factory=list)
    oracle: GradeResult | None = None
    empty: GradeResult | None = None
    seconds: float = 0.0
    gold_resolved: bool = False  # every oracle repeat passed every test that is not flaky
    breaking: list[int] = field(default_factory=lambda: [0, 0])  # breaking patches caught, run

    @property
    def ok(self) -> bool:
        return not self.problems


class OracleScriptError(SuiteError, RuntimeError):
    """solution/solve.sh itself failed, so no test result of that run means anything."""


def _grade_after(case: Case, backend: SandboxBackend, grader: Grader, script: str | None, tag: str) -> GradeResult:
    sandbox = backend.create(case_sandbox_spec(case, "validate", f"validate-{case.id}-{tag}", SandboxLimits()))
    try:
        if script is not None:
            result = sandbox.exec(script, timeout_s=case.limits.wall_clock_s)
            if result.exit_code != 0 or result.timed_out:
                tail = "" if case.protected else f":\n{fold(result.stdout + result.stderr, 800)}"
                raise OracleScriptError(f"oracle exited {result.exit_code}"
                                        f"{' (timed out)' if result.timed_out else ''}{tail}")
        return grader.grade(case, sandbox)
    finally:
        sandbox.destroy()


def _detail(case: Case, test: TestOutcome) -> str:
    # held-out tests must not leak into logs outside the run's own folder
    return "" if case.protected or not test.detail else f":\n{fold(test.detail, 600)}"


def flaky_names(repeats: list[GradeResult]) -> list[str]:
    """Tests whose pass/fail differs between repeats (a test missing from a repeat counts as failed)."""
    names = sorted({t.name for grade in repeats for t in grade.tests})
    verdicts = [{t.name: t.passed for t in grade.tests} for grade in repeats]
    return [n for n in names if len({v.get(n, False) for v in verdicts}) > 1]


def check_case(case: Case, backend: SandboxBackend, grader: Grader, repeats: int = 1) -> CaseCheck:
    """Validate one case: oracle ``repeats`` times, its alternatives (must pass), its breaking patches (must be
    caught), then the untouched workspace once."""
    started = time.monotonic()
    case = case.model_copy(update={"excluded_tests": []})  # re-derive flakiness, do not trust an old record
    check = CaseCheck(case.id)
    if case.invalid:
        check.problems.append(f"invalid case: {case.invalid}")
        return check
    refused = image_problem(case, backend)
    if refused:
        check.problems.append(f"refused: {refused}")
        return check
    runs: list[GradeResult] = []
    try:
        for index in range(max(1, repeats)):
            runs.append(_grade_after(case, backend, grader, case.solution_script.read_text(), f"oracle{index}"))
    except OracleScriptError as exc:
        check.problems.append(str(exc))
        check.seconds = time.monotonic() - started
        return check
    check.flaky = flaky_names(runs)
    check.oracle = runs[0]
    steady = [t for t in runs[0].tests if t.name not in check.flaky]
    check.problems += [f"oracle fails {t.kind} test {t.name}{_detail(case, t)}" for t in steady if not t.passed]
    if case.fail_to_pass and set(case.fail_to_pass) <= set(check.flaky):
        check.problems.append("every FAIL_TO_PASS test is flaky on the oracle; nothing would be scored")
    check.gold_resolved = not check.problems
    for script in sorted((case.root / "solution").glob("alt_*.sh")):
        try:
            grade = _grade_after(case, backend, grader, script.read_text(), script.stem)
        except OracleScriptError as exc:
            check.problems.append(f"alternative {script.name}: {exc}")
            continue
        check.problems += [f"alternative {script.name} fails {t.kind} test {t.name}{_detail(case, t)}"
                           for t in grade.tests if not t.passed and t.name not in check.flaky]
    for script in sorted((case.root / "solution").glob("breaking_*.sh")):
        # a patch that fixes the bug but breaks something else (repository tasks): the grade must catch it
        try:
            grade = _grade_after(case, backend, grader, script.read_text(), script.stem)
        except OracleScriptError as exc:
            check.problems.append(f"breaking patch {script.name}: {exc}")
            continue
        check.breaking[1] += 1
        if all(t.passed for t in grade.tests if t.name not in check.flaky):
            check.problems.append(f"breaking patch {script.name} was not caught: every test passed")
        else:
            check.breaking[0] += 1
    check.empty = _grade_after(case, backend, grader, None, "empty")
    for test in check.empty.tests:
        if test.name in check.flaky:
            continue
        if test.kind == "fail_to_pass" and test.passed:
            check.problems.append(f"FAIL_TO_PASS test {test.name} already passes on the starting workspace")
        if test.kind == "pass_to_pass" and not test.passed:
            check.problems.append(f"PASS_TO_PASS test {test.name} fails on the starting workspace"
                                  f"{_detail(case, test)}")
    check.seconds = time.monotonic() - started
    return check
