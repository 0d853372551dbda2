"""Broken arms: an arm whose trials mostly ended in ``agent_error`` or ``infra_error`` measured its harness
crashing (or the machinery failing), not the agent solving cases, so its scores are not a result.

The share that makes an arm broken is the experiment's ``analysis.broken_arm_fraction``, recorded in each
run's manifest.json (``BROKEN_ARM_FRACTION`` for runs that predate it). For each broken arm this says how
many trials ended how, the most common reason (the rows' ``reason``: the error the harness raised, or what
failed under it) and one example trial with the viewer command that opens it. The run, ``compare`` and the
report lead with these lines, and every verdict of a pair with a broken arm reads "broken arm".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import duckdb

from nightshift.analysis.source import one_row
from nightshift.experiment.config import AnalysisSettings
from nightshift.links import run_url, view_command

BROKEN_ARM_FRACTION = AnalysisSettings().broken_arm_fraction  # for runs whose manifest predates the setting
BROKEN_STATUSES = ("agent_error", "infra_error")
VERDICT = "broken arm"


@dataclass(frozen=True)
class BrokenArm:
    """One arm over its run's threshold, with what a person needs to start looking."""

    arm: str
    run_id: str
    trials: int
    by_status: dict[str, int]  # agent_error / infra_error -> trials
    threshold: float
    reason: str  # the most common reason among its broken trials
    reason_trials: int
    example: str  # trial id
    example_name: str  # case/variant/seedN
    run_dir: str

    @property
    def broken(self) -> int:
        return sum(self.by_status.values())

    def summary(self) -> str:
        """Short form for a verdict: ``listpatch: 6 of 6 trials agent_error``."""
        ended = [f"{n} {status}" for status, n in self.by_status.items() if n]
        how = (next(s for s, n in self.by_status.items() if n) if len(ended) == 1
               else f"agent_error or infra_error ({', '.join(ended)})")
        return f"{self.arm}: {self.broken} of {self.trials} trials ended {how}"

    def lines(self) -> list[str]:
        return [f"BROKEN ARM {self.summary()} (more than the broken_arm_fraction of {self.threshold:.0%}): its "
                "scores measure a crash, not the agent; fix it and run again",
                f"  most common reason ({self.reason_trials} of {self.broken}): {self.reason}",
                f"  example trial: {self.example_name}: {view_command(self.run_dir)}   then open "
                f"{run_url(self.run_id, trial=self.example)}"]


def threshold_of(parquet: str) -> float:
    """The broken-arm share the run was made with (its manifest's ``analysis``), else the default."""
    path = Path(parquet).with_name("manifest.json")
    try:
        value = json.loads(path.read_text()).get("analysis", {}).get("broken_arm_fraction")
    except (OSError, ValueError, AttributeError):
        value = None
    return BROKEN_ARM_FRACTION if value is None else float(value)


def broken_arms(con: duckdb.DuckDBPyConnection, files: list[str]) -> list[BrokenArm]:
    """Every arm of the ``trials`` view whose share of agent_error + infra_error trials is over its run's
    threshold, in arm order."""
    thresholds, folders = {}, {}
    for f in files:
        for (run_id,) in con.execute("SELECT DISTINCT run_id FROM read_parquet(?)", [f]).fetchall():
            thresholds[run_id], folders[run_id] = threshold_of(f), str(Path(f).parent)
    counts = con.execute("""SELECT arm, any_value(run_id), count(*),
            count(*) FILTER (WHERE status = 'agent_error'), count(*) FILTER (WHERE status = 'infra_error')
        FROM trials GROUP BY arm ORDER BY arm""").fetchall()
    found = []
    for arm, run_id, total, agent, infra in counts:
        threshold = thresholds.get(run_id, BROKEN_ARM_FRACTION)
        if not total or (agent + infra) / total <= threshold:
            continue
        reason, n, trial, name = one_row(con, """
            WITH broken AS (SELECT * FROM trials WHERE arm = ? AND status IN ('agent_error', 'infra_error')),
                 common AS (SELECT reason, count(*) AS n FROM broken GROUP BY reason ORDER BY n DESC, reason LIMIT 1)
            SELECT common.reason, common.n, b.trial_id, b.case_id || '/' || b.variant || '/seed' || b.seed
            FROM common JOIN broken b ON b.reason IS NOT DISTINCT FROM common.reason
            ORDER BY b.case_id, b.seed, b.trial_id LIMIT 1""", [arm])
        found.append(BrokenArm(arm, run_id, total, {"agent_error": agent, "infra_error": infra}, threshold,
                               reason or "(no reason recorded)", n, trial, name, folders.get(run_id, ".")))
    return found
