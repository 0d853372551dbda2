"""Row files are verified, not trusted: parse and validate each ``results/<trial>.json`` before it is used.

A row that does not parse or validate (a truncated write from a full disk, a torn copy, an edit by hand)
is moved aside to ``results/<trial>.json.corrupt`` so that nothing reads it again, and the trial counts as
not yet finished: the flow answers it again from the trial cache (a cache hit rewrites the row) or runs it.
The moved file is kept for a person to look at; it never matches ``results/*.json``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from nightshift.errors import StorageError
from nightshift.models import TrialResult, TrialStatus
from nightshift.tasks.results import result_path

log = logging.getLogger("nightshift.rows")


class CorruptRow(StorageError, ValueError):
    """A row file exists but is not a valid TrialResult."""


def load_row(path: Path) -> TrialResult | None:
    """The row in ``path``; None when there is no file; CorruptRow when it is not a valid row."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return TrialResult.model_validate(json.loads(data))
    except (ValueError, ValidationError, TypeError) as exc:  # JSONDecodeError and UnicodeError are ValueErrors
        raise CorruptRow(f"{path}: not a valid result row ({type(exc).__name__}: {str(exc)[:200]})") from exc


def quarantine(path: Path) -> Path:
    """Move a corrupt row aside (``<name>.corrupt``, replacing an older one) and return where it went."""
    target = path.with_name(path.name + ".corrupt")
    path.replace(target)
    return target


@dataclass
class RowCheck:
    """What the row files of a run hold for a list of trials."""

    rows: dict[str, TrialResult] = field(default_factory=dict)
    """Valid rows by trial id."""
    missing: list[str] = field(default_factory=list)
    """Trials without a row file."""
    corrupt: list[str] = field(default_factory=list)
    """Trials whose row file was invalid (now moved aside)."""

    def finished(self) -> dict[str, TrialResult]:
        """Rows that need no further attempt: everything except infra errors, which a re-run tries again."""
        return {t: r for t, r in self.rows.items() if r.status != TrialStatus.infra_error}


def check_rows(run_dir: Path, trial_ids: Iterable[str], run_id: str | None = None) -> RowCheck:
    """Parse and validate the row of every trial; corrupt ones are quarantined and reported once each.

    ``run_id``: a row that names another run is as good as corrupt for this one (it was copied in by hand).
    """
    check = RowCheck()
    for trial_id in trial_ids:
        path = result_path(run_dir, trial_id)
        try:
            row = load_row(path)
            if row is not None and (row.trial_id != trial_id or (run_id and row.run_id != run_id)):
                raise CorruptRow(f"{path}: holds trial {row.trial_id} of run {row.run_id}, not trial {trial_id}"
                                 + (f" of run {run_id}" if run_id else ""))
        except CorruptRow as exc:
            moved = quarantine(path)
            log.warning("%s; moved to %s, the trial will be answered from its cache or run again", exc, moved.name)
            check.corrupt.append(trial_id)
            continue
        if row is None:
            check.missing.append(trial_id)
        else:
            check.rows[trial_id] = row
    return check


def needs_row(run_dir: Path, trial_id: str) -> bool:
    """True when this trial has no valid row in the run (missing or corrupt): a cache hit must write it."""
    try:
        return load_row(result_path(run_dir, trial_id)) is None
    except CorruptRow:
        return True
