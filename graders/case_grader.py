"""The grader of every case (nightshift.contracts.Grader): public tests, hidden stress tests, checkpoints.

Order after the agent has finished: public tests are copied to /grader/tests and run; progress
checkpoints run; then the hidden tests are generated on the host (seeded, cached per case) and
copied to /grader/hidden, so nothing hidden existed anywhere the agent could look.
"""

from __future__ import annotations

from nightshift.contracts import Sandbox
from nightshift.graders.compare import judge, read_outputs
from nightshift.graders.hidden import HiddenTestSource, HiddenTestSpec
from nightshift.graders.public_tests import TEST_ENV, run_checkpoints, run_command, run_public_tests
from nightshift.models import Case, GradeResult, TestOutcome

GRADER_VERSION = "case-grader/2"


class CaseGrader:
    """Grades one sandbox; ``hidden_seed`` overrides every case's own generator seed (None keeps it)."""

    def __init__(self, hidden_seed: int | None = None, source: HiddenTestSource | None = None) -> None:
        self.hidden_seed = hidden_seed
        self.source = source or HiddenTestSource()

    def grade(self, case: Case, sandbox: Sandbox) -> GradeResult:
        public = run_public_tests(case, sandbox)
        marks = run_checkpoints(case, sandbox, public) if case.checkpoints else []
        return GradeResult(tests=public + marks + self.run_hidden(case, sandbox))

    def run_hidden(self, case: Case, sandbox: Sandbox) -> list[TestOutcome]:
        if case.hidden is None:
            return []
        seed = case.hidden.seed if self.hidden_seed is None else self.hidden_seed
        generated = self.source.tests_for(case, seed)
        sandbox.copy_in(generated.files, "/grader/hidden")
        outcomes: list[TestOutcome] = []
        for spec in generated.tests:
            timeout = spec.timeout_s or case.limits.test_timeout_s
            if spec.expected is None:
                outcomes.append(run_command(sandbox, spec.name, "hidden", spec.command, timeout,
                                            excluded=spec.name in case.excluded_tests))
            else:
                outcomes += _run_outputs_test(case, sandbox, spec, timeout)
        return outcomes


def _run_outputs_test(case: Case, sandbox: Sandbox, spec: HiddenTestSpec, timeout_s: float) -> list[TestOutcome]:
    """One process prints an answer per input; each input is judged (here, on the host) as one test."""
    assert spec.expected is not None
    result = sandbox.exec(spec.command, timeout_s=timeout_s, env=TEST_ENV)
    printed = read_outputs(result.stdout)
    share = result.duration_s / max(1, len(spec.expected))
    outcomes = []
    for index, expected in enumerate(spec.expected):
        name = f"{spec.name}[{index}]"
        passed, why = judge(expected, printed.get(index))
        if not passed and index not in printed and result.timed_out:
            why = "timed out before this input"
        outcomes.append(TestOutcome(name=name, kind="hidden", passed=passed, duration_s=share, detail=why,
                                    excluded=name in case.excluded_tests))
    return outcomes
