"""Per-case predictions learned from earlier nights' Parquet files (duration, tokens, requests per trial).

A trial is predicted by the mean of its case and variant in the history, else of its case over every
variant, else by the default (the median case when there is history; ``--minutes-per-trial`` when not).
Means, not medians: the night's length is a sum. Infrastructure errors are left out: they say nothing
about how long the case takes. Durations exclude the time a trial waited for quota (the planner models
the quota itself); tokens are input + output as the endpoint reported them.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from nightshift.errors import ConfigurationError
from nightshift.planner.model import TrialLoad


class HistoryError(ConfigurationError, ValueError):
    """A history source that cannot be read, phrased for the person who named it."""


@dataclass
class History:
    """Mean load per (case, variant) and per case, with a default for unseen cases."""

    by_case_variant: dict[tuple[str, str], TrialLoad] = field(default_factory=dict)
    by_case: dict[str, TrialLoad] = field(default_factory=dict)
    default: TrialLoad = TrialLoad(duration_s=600.0)
    sources: list[str] = field(default_factory=list)
    rows: int = 0

    def __bool__(self) -> bool:
        return bool(self.by_case)

    def predict(self, case_id: str, variant: str | None = None) -> TrialLoad:
        return self.by_case_variant.get((case_id, variant or ""), self.by_case.get(case_id, self.default))

    def covered(self, case_ids: Iterable[str]) -> float:
        """Fraction of these cases the history has seen."""
        ids = list(case_ids)
        return sum(c in self.by_case for c in ids) / len(ids) if ids else 0.0


def parquet_of(source: Path) -> Path:
    """The Parquet file of a history source: the file itself, or a run folder's results.parquet."""
    path = Path(source)
    if path.is_dir():
        path = path / "results.parquet"
    if not path.is_file():
        raise HistoryError(f"{source}: no Parquet file of an earlier night there; give a results.parquet or "
                           f"a run folder that has one (runs/<run-id>/)")
    return path


def latest_run(output_dir: Path, experiment: str, exclude: str | None = None) -> Path | None:
    """The newest earlier run folder of this experiment that has a Parquet file ('auto' history)."""
    runs = [p for p in Path(output_dir).glob(f"{experiment}-*") if p.name != exclude
            and (p / "results.parquet").is_file()]
    return max(runs, key=lambda p: (p / "results.parquet").stat().st_mtime) if runs else None


def _load(row: tuple) -> TrialLoad:
    duration, tokens, requests, gpu = row
    return TrialLoad(duration_s=float(duration or 0.0), tokens=float(tokens or 0.0),
                     requests=float(requests or 0.0), gpu_s=float(gpu or 0.0))


def learn_history(sources: Iterable[Path], default: TrialLoad | None = None) -> History:
    """Learn per-case means from these Parquet files or run folders (later rows count like earlier ones)."""

    files = [parquet_of(Path(s)) for s in sources]
    if not files:
        return History(default=default or TrialLoad(duration_s=600.0))
    names = ", ".join(f"'{f}'" for f in files)
    con = duckdb.connect()
    con.execute(f"CREATE VIEW rows AS SELECT * FROM read_parquet([{names}], union_by_name=true)")
    columns = {r[0] for r in con.execute("DESCRIBE rows").fetchall()}
    missing = {"case_id", "variant", "duration_s"} - columns
    if missing:
        raise HistoryError(f"{files[0]}: not a nightshift results file (no column {sorted(missing)})")
    tokens = "coalesce(input_tokens, 0) + coalesce(output_tokens, 0)" if "input_tokens" in columns else "0"
    requests = "model_calls" if "model_calls" in columns else "0"
    # seconds a trial held a timing slot (card or reserved core); gpu_s in rows written before timing_s
    gpu = "timing_s" if "timing_s" in columns else "gpu_s" if "gpu_s" in columns else "0"
    status = "status IS DISTINCT FROM 'infra_error'" if "status" in columns else "true"
    # the quota is modelled on its own: a trial's full-speed duration excludes what it waited for quota
    duration = "greatest(duration_s - coalesce(quota_wait_s, 0), 0)" if "quota_wait_s" in columns else "duration_s"
    means = f"avg({duration}), avg({tokens}), avg({requests}), avg({gpu})"
    history = History(sources=[str(f) for f in files])
    for case, variant, *load in con.execute(
            f"SELECT case_id, variant, {means} FROM rows WHERE {status} GROUP BY ALL").fetchall():
        history.by_case_variant[(case, variant)] = _load(tuple(load))
    for case, *load in con.execute(f"SELECT case_id, {means} FROM rows WHERE {status} GROUP BY ALL").fetchall():
        history.by_case[case] = _load(tuple(load))
    counted = con.execute(f"SELECT count(*) FROM rows WHERE {status}").fetchone()
    assert counted is not None  # count(*) has its one row
    history.rows = counted[0]
    if default is not None:
        history.default = default
    elif history.by_case:
        loads = list(history.by_case.values())
        history.default = TrialLoad(*(statistics.median(getattr(t, f) for t in loads)
                                      for f in ("duration_s", "tokens", "requests", "gpu_s")))
    return history
