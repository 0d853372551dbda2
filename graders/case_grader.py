"""The grader of every case (nightshift.contracts.Grader): public tests, hidden stress tests, checkpoints.

Order after the agent has finished: public tests are copied to /grader/tests and run; progress
checkpoints run; then the hidden tests are generated on the host (seeded, cached per case) and
copied to /grader/hidden, so nothing hidden existed anywhere the agent could look. The generator's
seed comes from the night (``hidden_seed``, pinned in the manifest) and the case
(experiment/hidden_seed.py); the grade records it and the generated tests' digest. Last, a case graded by
speed (``[timing]``) is timed, once every other counted test has passed, holding one exclusive slot of
the host's timing pool (graders/timing_step.py).
"""

from __future__ import annotations

import re

from nightshift.contracts import Sandbox
from nightshift.experiment.config import GpuSettings
from nightshift.experiment.hidden_seed import case_seed
from nightshift.gpu import GpuPool, timing_pool
from nightshift.graders.compare import judge, read_outputs
from nightshift.graders.hidden import HiddenTestSource, HiddenTestSpec
from nightshift.graders.public_tests import TEST_ENV, run_checkpoints, run_command, run_public_tests
from nightshift.graders.timing_step import not_timed, run_timing
from nightshift.models import Case, GradeResult, TestOutcome, TimingResult

GRADER_VERSION = "case-grader/3"  # 3: hidden tests named by input hash, seeds per night and case


class CaseGrader:
    """Grades one sandbox. ``hidden_seed`` is the night's seed (each case's generator gets a seed derived
    from it and the case id); None keeps every case's own ``[hidden] seed`` (validation, tests)."""

    def __init__(self, hidden_seed: int | None = None, source: HiddenTestSource | None = None,
                 timing_pool: GpuPool | None = None) -> None:
        self.hidden_seed = hidden_seed
        self.source = source or HiddenTestSource()
        self._timing_pool = timing_pool

    @property
    def timing_pool(self) -> GpuPool:
        """The slots timing steps hold; default: this host's (its cards, else its last CPU core), shared by
        every grader of the process and, through lock files, by every process on the host."""
        if self._timing_pool is None:
            self._timing_pool = timing_pool(GpuSettings())
        return self._timing_pool

    def seed_for(self, case: Case) -> int | None:
        """The seed this grader gives the case's generator (None: the case has no hidden tests)."""
        if case.hidden is None:
            return None
        return case.hidden.seed if self.hidden_seed is None else case_seed(self.hidden_seed, case.id)

    def grade(self, case: Case, sandbox: Sandbox) -> GradeResult:
        public = run_public_tests(case, sandbox)
        marks = run_checkpoints(case, sandbox, public) if case.checkpoints else []
        named = reported_scores(public)
        seed = self.seed_for(case)
        hidden, digest = self.run_hidden(case, sandbox, seed) if seed is not None else ([], "")
        timed, timing = self.run_timing(case, sandbox, public + hidden)
        return GradeResult(tests=public + timed + marks + hidden, hidden_seed=seed, hidden_digest=digest,
                           scores=named, timing=timing)

    def run_timing(self, case: Case, sandbox: Sandbox,
                   tests: list[TestOutcome]) -> tuple[list[TestOutcome], TimingResult | None]:
        """The timing test of a case graded by speed (none for other cases), timed only once it is correct."""
        if case.timing is None:
            return [], None
        failed = [t.name for t in tests if not t.passed and not t.excluded]
        if failed:
            shown = ", ".join(failed[:3]) + (f" and {len(failed) - 3} more" if len(failed) > 3 else "")
            return [not_timed(case, f"{len(failed)} correctness tests failed ({shown})")], None
        seed = self.seed_for(case)
        if seed is None:
            seed = case_seed(self.hidden_seed, case.id) if self.hidden_seed is not None else 0
        outcome, timing = run_timing(case, sandbox, self.timing_pool, seed)
        return [outcome], timing

    def run_hidden(self, case: Case, sandbox: Sandbox, seed: int) -> tuple[list[TestOutcome], str]:
        """The hidden tests generated for ``seed``, run in the sandbox, and the digest of what was generated."""
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
        return outcomes, generated.digest


def reported_scores(tests: list[TestOutcome]) -> dict[str, float | None]:
    """The named rewards tests reported (every numeric key of a Harbor reward.json) as metrics `reward` and
    `reward_<key>`, so each becomes a score.<name> column with the pass rate's treatment. Counted tests only; a key
    two tests report is averaged."""
    found: dict[str, list[float]] = {}
    for test in tests:
        if test.excluded:
            continue
        for key, value in test.scores.items():
            slug = re.sub(r"[^a-z0-9_]+", "_", key.lower()).strip("_") or "value"
            found.setdefault("reward" if slug == "reward" else f"reward_{slug}", []).append(value)
    return {name: sum(values) / len(values) for name, values in found.items()}


def _run_outputs_test(case: Case, sandbox: Sandbox, spec: HiddenTestSpec, timeout_s: float) -> list[TestOutcome]:
    """One process prints an answer per input; each input is judged (here, on the host) as one test."""
    assert spec.expected is not None
    result = sandbox.exec(spec.command, timeout_s=timeout_s, env=TEST_ENV)
    printed = read_outputs(result.stdout)
    share = result.duration_s / max(1, len(spec.expected))
    outcomes = []
    for index, (name, expected) in enumerate(zip(spec.input_names(), spec.expected, strict=True)):
        passed, why = judge(expected, printed.get(index))
        if not passed and index not in printed and result.timed_out:
            why = "timed out before this input"
        outcomes.append(TestOutcome(name=name, kind="hidden", passed=passed, duration_s=share, detail=why,
                                    excluded=name in case.excluded_tests))
    return outcomes
