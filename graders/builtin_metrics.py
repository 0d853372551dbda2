"""The metrics nightshift ships (registered in nightshift.plugins.METRICS).

``resolved`` and ``progress`` are what every trial gets (the pass rate and partial credit);
``time_to_pass``, ``files_outside_allowed`` and ``speedup`` (cases graded by speed) are named in a suite or an
experiment when wanted.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from pydantic import Field

from nightshift.plugin import Metric, MetricResult, TrialFacts


class Resolved(Metric):
    """1 when the agent submitted and every counted public and hidden test passed, else 0 (the pass rate)."""

    def __call__(self, trial: TrialFacts) -> MetricResult:
        if trial.ended_by == "infra_error":
            return MetricResult(value=None, message="infra error: not the agent's doing, not scored")
        if trial.resolved:
            return MetricResult(value=1.0)
        why = "tests failed" if trial.ended_by == "submitted" else f"ended by {trial.ended_by}"
        return MetricResult(value=0.0, message=why)


class Progress(Metric):
    """Partial credit in [0, 1]: checkpoints reached, or the share of goal tests passed (GradeResult.progress)."""

    def __call__(self, trial: TrialFacts) -> MetricResult:
        if trial.grade is None:
            return MetricResult(value=None if trial.ended_by == "infra_error" else 0.0, message="not graded")
        return MetricResult(value=trial.grade.progress)


class TimeToPass(Metric):
    """Wall seconds from the trial's start to the submit that passed (lower is better).

    A trial that did not pass has no value: the mean is over passing trials, and a paired comparison
    uses the cases where both arms passed at least once.
    """

    unit = "s"
    higher_is_better = False

    def __call__(self, trial: TrialFacts) -> MetricResult:
        if not trial.resolved:
            return MetricResult(value=None, message="not resolved: no passing state")
        return MetricResult(value=round(trial.agent_s, 3))


class FilesOutsideAllowed(Metric):
    """How many workspace files the agent added, changed or deleted outside the allowed paths (lower is better).

    Paths are relative to /workspace and matched with shell patterns (``fnmatch``: ``*`` also
    matches ``/``, so ``src/*`` allows everything under src/). Files matching ``ignore`` never count.
    The workspace is listed as the agent left it, before any test ran.
    """

    unit = "files"
    higher_is_better = False
    needs_files = True
    allowed: list[str] = Field(description="Patterns of paths the agent may change, e.g. ['src/*', 'README.md'].")
    ignore: list[str] = Field(["*__pycache__/*", "*.pyc", ".pytest_cache/*"],
                              description="Patterns of paths that never count (caches the tools write).")

    def __call__(self, trial: TrialFacts) -> MetricResult:
        outside = [p for p in trial.changed_files()
                   if not any(fnmatchcase(p, pat) for pat in self.ignore)
                   and not any(fnmatchcase(p, pat) for pat in self.allowed)]
        shown = ", ".join(outside[:5]) + (f" and {len(outside) - 5} more" if len(outside) > 5 else "")
        return MetricResult(value=float(len(outside)), message=shown)


class Speedup(Metric):
    """How many times faster the agent's function ran than the case's baseline, in one exclusive slot of the timing
    pool (median over the repeats; graders/timing_step.py). Only cases graded by speed have it, and only trials whose
    correctness held (an incorrect fast function has no speed worth comparing)."""

    unit = "x"
    higher_is_better = True

    def __call__(self, trial: TrialFacts) -> MetricResult:
        if trial.case.timing is None:
            return MetricResult(value=None, message="not a case graded by speed")
        timing = trial.grade.timing if trial.grade else None
        if timing is None or timing.speedup is None:
            return MetricResult(value=None, message="not timed" if timing is None else timing.detail)
        return MetricResult(value=timing.speedup, message=timing.detail)
