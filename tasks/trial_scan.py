"""A finished trial's scan: the run's scanners over its trajectory, diff and grade, then the flag policy.

Runs at the end of every trial (after grading, the sandbox already gone: scanners read files and text only) and
again, over the files a run folder keeps, when ``nightshift scan RUN`` re-scans (tasks/rescan.py). The policy
(``flags: {cheat: fail}``) turns a flagged trial into a failure whose reason names the flag.
"""

from __future__ import annotations

from pathlib import Path

from nightshift.contracts import ModelClient
from nightshift.graders.scanning import PolicyAction, ScannerSet, failure_reason, policy_failure
from nightshift.models import Case, Flag, GradeResult, TrialResult, TrialStatus
from nightshift.scanners import TrialRecord, read_events


def scan_trial(scanners: ScannerSet, case: Case, trajectory: Path, diff: str | None, grade: GradeResult | None,
               ended_by: str, status: TrialStatus, model: ModelClient | None = None,
               agent_copies: list[dict] | None = None) -> list[Flag]:
    """The flags of one trial; an infra_error trial was not evaluated, so it has none. ``model``: the gateway
    session a scanner that asks a model (the judge) calls through, its accounting the row's scan_* fields;
    ``agent_copies``: copies of the case's package the trial's agent install holds (harnesses/install_copies.py),
    handed to scanners as ``TrialRecord.agent_copies``."""
    if status == TrialStatus.infra_error:
        return []
    record = TrialRecord(case=case, events=read_events(trajectory), diff=diff, grade=grade, ended_by=ended_by,
                         status=status.value, model=model,
                         agent_copies=list(agent_copies or []))
    return scanners.scan(record)


def apply_policy(row: TrialResult, policy: dict[str, PolicyAction]) -> TrialResult:
    """The row as the policy scores it: a flag the policy fails makes a resolved trial failed with score 0."""
    failing = policy_failure(row.flags, policy)
    if failing is None or row.status != TrialStatus.resolved:
        return row
    reason = "; ".join(filter(None, [failure_reason(failing), row.reason]))[:500]
    return row.model_copy(update={"status": TrialStatus.failed, "score": 0.0, "reason": reason,
                                  "scores": {**row.scores, "resolved": 0.0} if "resolved" in row.scores
                                  else row.scores})


def scan_accounting(session: object) -> dict[str, int | float]:
    """The row's scan_* fields from the scan session's accounting (a gateway.GatewaySession)."""
    return {"scan_calls": int(getattr(session, "calls", 0)),
            "scan_input_tokens": int(getattr(session, "input_tokens", 0)),
            "scan_output_tokens": int(getattr(session, "output_tokens", 0)),
            "scan_cost_usd": round(float(getattr(session, "cost_usd", 0.0)), 6)}
