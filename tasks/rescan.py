"""``nightshift scan RUN``: re-scan a finished run with today's scanners, without running any trial again.

Reads what the run folder keeps of each trial (its row, trajectory, diff and grade), scans it as the trial's
own end did (tasks/trial_scan.py), applies the run's own flag policy (a pin of the run: manifest.json), then
rewrites each changed row atomically and rebuilds results.parquet from the rows, keeping its metric columns;
scans.json records each re-scan.
A held-out case kept no diff or grade, so only its trajectory is re-scanned.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pyarrow.parquet as pq

from nightshift.atomic_files import atomic_write_text
from nightshift.errors import StorageError
from nightshift.experiment.manifest import RunManifest
from nightshift.gateway import ModelGateway
from nightshift.graders.scanning import ScannerSet
from nightshift.harnesses.install_copies import read_run_file
from nightshift.models import Case, GradeResult, TrialResult, TrialStatus
from nightshift.tasks.artifacts import read_diff, read_grade, trajectory_path
from nightshift.tasks.results import SCORE_PREFIX, write_parquet, write_result
from nightshift.tasks.row_check import load_row
from nightshift.tasks.trial_scan import apply_policy, scan_accounting, scan_trial

POLICY_PREFIX = "flag policy: "
_ENDED_BY = {"resolved": "submitted", "failed": "submitted"}  # every other status is how the agent phase ended


class RescanError(StorageError, ValueError):
    """A run folder that cannot be re-scanned; the message names the folder and the fix."""


@dataclass
class RescanReport:
    """What a re-scan changed: per trial, the flags added and removed, and the statuses the policy changed."""

    trials: int = 0
    changed: int = 0
    added: Counter[str] = field(default_factory=Counter)  # "severity scanner/name" -> trials that gained it
    removed: Counter[str] = field(default_factory=Counter)
    status_changes: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # trials whose case is not in the given suites

    def lines(self) -> list[str]:
        out = [f"re-scanned {self.trials} trials: {self.changed} with different flags"]
        out += [f"  + {n} trial{'s' if n != 1 else ''} newly flagged {k}" for k, n in sorted(self.added.items())]
        out += [f"  - {n} trial{'s' if n != 1 else ''} no longer flagged {k}" for k, n in sorted(self.removed.items())]
        out += [f"  status: {line}" for line in self.status_changes]
        if self.skipped:
            out.append(f"  not scanned ({len(self.skipped)}): case not found in the experiment's suites, e.g. "
                       f"{self.skipped[0]}")
        return out


def _unpolicied(row: TrialResult) -> TrialResult:
    """The row as it was graded, before the run's flag policy failed it (the reason says so)."""
    if row.status != TrialStatus.failed or not row.reason.startswith(POLICY_PREFIX):
        return row
    rest = row.reason.split("; ", 1)[1] if "; " in row.reason else ""
    return row.model_copy(update={"status": TrialStatus.resolved, "score": 1.0, "reason": rest,
                                  "scores": {**row.scores, "resolved": 1.0} if "resolved" in row.scores
                                  else row.scores})


def _key(flag) -> str:
    return f"{flag.severity} {flag.scanner}/{flag.name}"


def rescan_run(run_dir: Path, cases: list[Case], scanners: ScannerSet, gateway: ModelGateway | None = None
               ) -> RescanReport:
    """Re-scan every row of ``run_dir``; ``cases`` are the run's cases (by id) as the experiment loads them;
    ``gateway``: the experiment's endpoint, for a scanner that asks a model (each trial's calls counted in its
    row's scan_* fields, replacing the night's)."""
    manifest_path = run_dir / "manifest.json"
    if not manifest_path.is_file() or not (run_dir / "results").is_dir():
        raise RescanError(f"{run_dir}: not a run folder (no manifest.json or results/); pass the folder "
                          f"`nightshift run` printed, e.g. runs/default-1a2b3c4d5e6f")
    manifest = RunManifest.read(manifest_path)
    by_id = {c.id: c for c in cases}
    copies = read_run_file(run_dir)  # the night's agent installs' copies of each case's package
    report, rows = RescanReport(), []
    for path in sorted((run_dir / "results").glob("*.json")):
        row = load_row(path)
        if row is None:
            continue
        case = by_id.get(row.case_id)
        if case is None:
            report.skipped.append(row.case_id)
            rows.append(row)
            continue
        report.trials += 1
        graded = _unpolicied(row)
        grade_data = read_grade(run_dir, row.trial_id)
        grade = GradeResult.model_validate(grade_data) if grade_data else None
        session = gateway.session() if gateway is not None else None
        flags = scan_trial(scanners, case, trajectory_path(run_dir, row.trial_id), read_diff(run_dir, row.trial_id),
                           grade, _ENDED_BY.get(graded.status.value, graded.status.value), graded.status, session,
                           copies.get(row.variant, {}).get(row.case_id))
        update: dict[str, object] = {"flags": flags, **(scan_accounting(session) if session is not None else {})}
        new = apply_policy(graded.model_copy(update=update), manifest.flag_policy)  # type: ignore[arg-type]
        before, after = Counter(map(_key, row.flags)), Counter(map(_key, new.flags))
        if before != after or new.status != row.status:
            report.changed += 1
            report.added.update(set(after) - set(before))
            report.removed.update(set(before) - set(after))
            if new.status != row.status:
                report.status_changes.append(f"{row.case_id}/{row.variant}/seed{row.seed}: {row.status.value} → "
                                             f"{new.status.value}")
            write_result(run_dir, new)
        elif session is not None and session.calls:  # same flags, but this scan's model calls are its cost now
            write_result(run_dir, new)
        rows.append(new)
    parquet = run_dir / "results.parquet"
    write_parquet(rows, parquet, _metric_columns(parquet))
    _record_scan(run_dir, scanners, report)
    return report


def _metric_columns(parquet: Path) -> dict[str, dict[str, str]]:
    """The score.<name> columns of the run's Parquet file with their unit and direction, to write them again."""
    if not parquet.is_file():
        return {}
    columns = {}
    for column in pq.read_schema(parquet):
        if column.name.startswith(SCORE_PREFIX):
            meta = {k.decode(): v.decode() for k, v in (column.metadata or {}).items()}
            columns[column.name.removeprefix(SCORE_PREFIX)] = meta
    return columns


def _record_scan(run_dir: Path, scanners: ScannerSet, report: RescanReport) -> None:
    """scans.json: each re-scan's scanners and what it changed. The manifest stays as the night wrote it: with a
    flag policy the scanners are part of the trial ids, and a re-scan must not change those."""
    path = run_dir / "scans.json"
    try:
        history = json.loads(path.read_text()) if path.is_file() else []
    except ValueError:
        history = []
    history.append({"at": datetime.now(UTC).isoformat(timespec="seconds"), "scanners": scanners.identities(),
                    "trials": report.trials, "changed": report.changed})
    atomic_write_text(path, json.dumps(history, indent=1) + "\n")
