"""Per-trial result files (written atomically as each trial ends) and the run's Parquet file.

The Parquet file is always rebuilt from the per-trial files, one file per trial id, so no crash
point can leave a duplicate or a missing row. Each named metric of ``TrialResult.scores`` becomes one
``score.<name>`` column (null where a trial has no value), with the metric's unit and direction in
the column's Parquet metadata for the analysis to read.
"""

from __future__ import annotations

import json
import typing
from datetime import datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from nightshift.atomic_files import atomic_write_bytes, atomic_write_with
from nightshift.models import SEVERITIES, Flag, TrialResult


def worst(flags: list[Flag]) -> str:
    """The highest severity among the flags; '' for none."""
    return max((f.severity for f in flags), key=SEVERITIES.index, default="")


def result_path(run_dir: Path, trial_id: str) -> Path:
    return run_dir / "results" / f"{trial_id}.json"


def write_result(run_dir: Path, result: TrialResult) -> Path:
    path = result_path(run_dir, result.trial_id)
    atomic_write_bytes(path, result.model_dump_json(indent=1).encode())
    return path


def read_results(run_dir: Path, trial_ids: list[str]) -> list[TrialResult]:
    """Results for these trials, in this order; trials without a file yet are left out (a corrupt file
    raises: the flow verifies rows with tasks/row_check.py first)."""
    rows = []
    for trial_id in trial_ids:
        path = result_path(run_dir, trial_id)
        if path.is_file():
            rows.append(TrialResult.model_validate(json.loads(path.read_text())))
    return rows


# ISO strings in the per-trial JSON, real UTC timestamps in Parquet (runs written before are strings there:
# nightshift.results reads both)
TIMESTAMPS = ("started_at", "finished_at")
SCORE_PREFIX = "score."
NESTED = ("scores", "score_messages", "flags")  # score.<name> columns / JSON files only / the flags columns
FLAG_FIELDS = ("scanner", "name", "severity", "step", "path", "line", "explanation")
FLAGS_TYPE = pa.list_(pa.struct([pa.field(n, pa.int64() if n == "step" else pa.string()) for n in FLAG_FIELDS]))


def _arrow_schema(metrics: dict[str, dict[str, str]]) -> pa.Schema:
    kinds: dict[object, Any] = {int: pa.int64(), float: pa.float64(), str: pa.string()}
    fields = []
    for name, info in TrialResult.model_fields.items():
        if name in NESTED:
            continue
        # an optional int (``int | None``) is a nullable int64 column, not text
        kind = next((k for k in typing.get_args(info.annotation) if k is not type(None)), info.annotation)
        kind = pa.timestamp("ms", tz="UTC") if name in TIMESTAMPS else kinds.get(kind, pa.string())
        fields.append(pa.field(name, kind))
    # every flag of the trial, and the highest severity ('' for none) that the analysis counts by
    fields += [pa.field("flags", FLAGS_TYPE), pa.field("flag", pa.string())]
    for name, meta in metrics.items():
        fields.append(pa.field(SCORE_PREFIX + name, pa.float64(), metadata=meta or None))
    return pa.schema(fields)


def score_columns(rows: list[TrialResult], metrics: dict[str, dict[str, str]] | None = None) -> dict[str, dict]:
    """Metric name -> column metadata: the run's metrics in their order, then any other name a row carries."""
    found = dict(metrics or {})
    for name in sorted({n for r in rows for n in r.scores} - set(found)):
        found[name] = {}
    return found


def _parquet_row(result: TrialResult, columns: dict[str, dict]) -> dict:
    row = result.model_dump(mode="json", exclude=set(NESTED))
    for name in TIMESTAMPS:
        row[name] = datetime.fromisoformat(row[name]) if row.get(name) else None
    row["flags"] = [flag.model_dump(include=set(FLAG_FIELDS)) for flag in result.flags]
    row["flag"] = worst(result.flags)
    row.update({SCORE_PREFIX + name: result.scores.get(name) for name in columns})
    return row


def write_parquet(rows: list[TrialResult], path: Path, metrics: dict[str, dict[str, str]] | None = None) -> Path:
    """Write the rows; ``metrics`` (name -> {unit, higher_is_better}) describes the score.<name> columns."""
    columns = score_columns(rows, metrics)
    schema = _arrow_schema(columns)
    table = pa.Table.from_pylist([_parquet_row(r, columns) for r in rows], schema=schema)
    return atomic_write_with(path, lambda tmp: pq.write_table(table, tmp))
