"""Where the numbers come from: one DuckDB view, ``trials``, over one or more runs' Parquet files.

The view gives every later query the same columns whatever the Parquet holds: columns that a newer
result schema adds (a grader's ``progress``, a gateway's ``cost_usd``, hidden-test counts) are used
when present and read as NULL, or as a documented proxy, when absent. It also names the *arm* of a
trial: the variant, or ``variant@run`` when the same variant name comes from several runs.

Named metrics (``score.<name>`` columns, graders/metric.py) are discovered here: each one other than
``resolved`` and ``progress`` (the pass rate and progress themselves) becomes a view column of its
name, described in the ``metric_meta`` table (unit, direction) that every later query reads. A metric no
trial has a value for (the built-in suite's ``speedup`` on a night without perf cases) is left out, noted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq

from nightshift.errors import ConfigurationError
from nightshift.models import RESERVED_METRIC_NAMES

PROGRESS_COLUMNS = ("progress", "progress_score")
COST_COLUMNS = ("cost_usd", "cost", "estimated_cost_usd")
HIDDEN_COLUMNS = ("hidden_passed", "hidden_total")
REQUIRED = ("run_id", "case_id", "variant", "status", "score")

# Progress when the grader gives none: the fraction of public tests (FAIL_TO_PASS and PASS_TO_PASS) that
# pass; a trial without public test counts falls back to its 0/1 score.
PROGRESS_PROXY = """CASE WHEN coalesce(f2p_total, 0) + coalesce(p2p_total, 0) > 0
    THEN (coalesce(f2p_passed, 0) + coalesce(p2p_passed, 0))::DOUBLE
         / (coalesce(f2p_total, 0) + coalesce(p2p_total, 0))
    ELSE score END"""


SCORE_PREFIX = "score."
BUILTIN_SCORES = ("resolved", "progress")  # the same numbers as the score and progress columns
METRIC_NAME = re.compile(r"[a-z][a-z0-9_]{0,62}")


@dataclass(frozen=True)
class MetricInfo:
    """A named metric found in the rows: how to show its values and which way is better."""

    name: str
    unit: str  # 'fraction' (a rate in [0, 1], shown in %, differences in points) or a unit label
    higher_is_better: bool
    nonnegative: bool

    @property
    def fraction(self) -> bool:
        return self.unit == "fraction"

    def label(self) -> str:
        return self.name.replace("_", " ") + ("" if self.fraction else f" ({self.unit})" if self.unit else "")


def _column_meta(paths: Sequence[Path | str]) -> dict[str, dict[str, str]]:
    """score.<name> column -> its Parquet field metadata (unit, higher_is_better), first file that has it."""
    found: dict[str, dict[str, str]] = {}
    for path in paths:
        for f in pq.read_schema(path):
            if f.name.startswith(SCORE_PREFIX) and f.name not in found and f.metadata:
                found[f.name] = {k.decode(): v.decode() for k, v in f.metadata.items()}
    return found


def score_metrics(con: duckdb.DuckDBPyConnection) -> list[MetricInfo]:
    """The named metrics of the ``trials`` view, in column order (none when the view has no metric_meta)."""
    if not one_row(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'metric_meta'")[0]:
        return []
    return [MetricInfo(n, u, h, z) for n, u, h, z in con.execute(
        "SELECT name, unit, higher_is_better, nonnegative FROM metric_meta ORDER BY position").fetchall()]


def _discover(con: duckdb.DuckDBPyConnection, scan: str, ordered: list[str],
              paths: Sequence[Path | str], notes: list[str]) -> list[MetricInfo]:
    meta = _column_meta(paths)
    candidates = []
    for column in ordered:
        name = column.removeprefix(SCORE_PREFIX)
        if not column.startswith(SCORE_PREFIX) or name in BUILTIN_SCORES:
            continue
        if not METRIC_NAME.fullmatch(name) or name in RESERVED_METRIC_NAMES:
            notes.append(f"column {column!r} left out: {name!r} is not a usable metric name")
            continue
        candidates.append(name)
    ranges = one_row(con, "SELECT " + ", ".join(f'min("{SCORE_PREFIX}{n}"), max("{SCORE_PREFIX}{n}")'
                                                for n in candidates) + f" FROM {scan}") if candidates else ()
    found = []
    for i, name in enumerate(candidates):
        low, high = ranges[2 * i], ranges[2 * i + 1]
        if low is None and high is None:  # a suite's metric for cases this night did not run (speedup, say)
            notes.append(f"metric {name!r} left out: no trial has a value")
            continue
        info = meta.get(SCORE_PREFIX + name, {})
        unit = info.get("unit") or ("fraction" if low is not None and low >= 0 and high <= 1 else "")
        found.append(MetricInfo(name, unit, info.get("higher_is_better", "true") != "false",
                                low is None or low >= 0))
    con.execute("CREATE OR REPLACE TEMP TABLE metric_meta (position INTEGER, name VARCHAR, unit VARCHAR, "
                "higher_is_better BOOLEAN, nonnegative BOOLEAN)")
    if found:
        con.executemany("INSERT INTO metric_meta VALUES (?, ?, ?, ?, ?)",
                        [(i, m.name, m.unit, m.higher_is_better, m.nonnegative) for i, m in enumerate(found)])
    return found


class AnalysisError(ConfigurationError, ValueError):
    """A result file the analysis cannot read; the message names the file and the fix."""


def parquet_paths(runs: Sequence[str | Path]) -> list[Path]:
    """Each argument as a Parquet file: a run folder means its ``results.parquet``."""
    files = []
    for run in runs:
        path = Path(run)
        path = path / "results.parquet" if path.is_dir() else path
        if not path.is_file():
            raise AnalysisError(f"{path}: no results.parquet here; pass a run folder or its results.parquet")
        files.append(path)
    return files


def one_row(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[object] | None = None) -> tuple[Any, ...]:
    """The row of a query that has exactly one (an aggregate): duckdb's fetchone() is optional for the others."""
    row = con.execute(sql, params).fetchone()
    if row is None:
        raise AnalysisError(f"expected one row, got none: {sql}")
    return row


def sql_text(value: str) -> str:
    """A string as an SQL literal (quotes doubled), for the few names that cannot be bound parameters."""
    return "'" + value.replace("'", "''") + "'"


def run_labels(runs: list[str]) -> dict[str, str]:
    """Short names for runs in arm names: ``default-00373aa4c88e`` becomes ``00373aa4`` when every run
    shares the ``default-`` prefix and ends in a hash; otherwise the run id itself."""
    prefixes = {r.rsplit("-", 1)[0] for r in runs if "-" in r}
    if len(prefixes) == 1 and all("-" in r for r in runs):
        short = {r: r.rsplit("-", 1)[1][:8] for r in runs}
        if len(set(short.values())) == len(runs) and all(len(r.rsplit("-", 1)[1]) >= 8 for r in runs):
            return short
    return {r: r for r in runs}


def connect(parquet: Path | str | Sequence[Path | str]) -> tuple[duckdb.DuckDBPyConnection, dict]:
    """An in-memory DuckDB connection with the ``trials`` view, and what the view found (columns, runs)."""
    paths = [parquet] if isinstance(parquet, Path | str) else list(parquet)
    if not paths:
        raise AnalysisError("no result files given")
    con = duckdb.connect(":memory:")
    scan = "read_parquet([" + ", ".join(sql_text(Path(p).as_posix()) for p in paths) + "], union_by_name = true)"
    try:
        ordered = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()]
        columns = set(ordered)
    except duckdb.Error as exc:
        raise AnalysisError(f"{', '.join(map(str, paths))}: not readable as Parquet ({exc})") from exc
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise AnalysisError(f"{paths[0]}: result rows lack columns {missing}; was it written by tasks/results.py?")

    def pick(names: Sequence[str]) -> str | None:
        return next((n for n in names if n in columns), None)

    def col(name: str, default: str) -> str:
        return name if name in columns else default

    progress_col, cost_col = pick(PROGRESS_COLUMNS), pick(COST_COLUMNS)
    # schemas default these to 0.0: a column that is 0 on every row was not filled in, not measured as 0
    notes = []
    if progress_col and not one_row(con, f"SELECT count(*) FILTER (WHERE {progress_col} > 0) > 0 OR "
                                         f"count(*) FILTER (WHERE score > 0) = 0 FROM {scan}")[0]:
        notes.append(f"'{progress_col}' is 0 on every row although some trials scored: not filled in, proxy used")
        progress_col = None
    if cost_col and not one_row(con, f"SELECT coalesce(bool_or({cost_col} <> 0), false) FROM {scan}")[0]:
        notes.append(f"'{cost_col}' is 0 on every row: unpriced, shown as no cost")
        cost_col = None
    proxy = PROGRESS_PROXY if {"f2p_total", "p2p_total"} <= columns else "score"
    progress = f"coalesce({progress_col}, {proxy})" if progress_col else proxy
    has_hidden = set(HIDDEN_COLUMNS) <= columns
    public_pass = ("CASE WHEN f2p_total + p2p_total > 0 THEN (f2p_passed = f2p_total AND p2p_passed = p2p_total)"
                   "::DOUBLE END" if {"f2p_total", "p2p_total", "f2p_passed", "p2p_passed"} <= columns else "NULL")
    hidden_pass = ("CASE WHEN hidden_total > 0 THEN (hidden_passed = hidden_total)::DOUBLE END"
                   if has_hidden else "NULL")
    runs = [r[0] for r in con.execute(f"SELECT DISTINCT run_id FROM {scan} ORDER BY 1").fetchall()]
    # a variant name in several runs is ambiguous: name the arm after its run as well
    shared = one_row(con, f"SELECT count(*) FROM (SELECT variant FROM {scan} GROUP BY variant "
                          f"HAVING count(DISTINCT run_id) > 1)")[0]
    labels = run_labels(runs)
    arm = ("variant || '@' || CASE run_id " + " ".join(f"WHEN {sql_text(r)} THEN {sql_text(labels[r])}" for r in runs)
           + " END"
           if shared else "variant")
    metrics = _discover(con, scan, ordered, paths, notes)
    named = "".join(f', "{SCORE_PREFIX}{m.name}"::DOUBLE AS {m.name}' for m in metrics)
    con.execute(f"""CREATE VIEW trials AS SELECT
        run_id, {arm} AS arm, variant, {col('model_version', "''")} AS model_version, case_id,
        {col('seed', '0')} AS seed, {col('trial_id', "''")} AS trial_id, {col('reason', "''")} AS reason,
        {col('domain', "'all'")} AS domain, {col('split', "'public'")} AS split, status,
        status = 'infra_error' AS infra,
        score::DOUBLE AS score, ({progress})::DOUBLE AS progress,
        {public_pass} AS public_pass, {hidden_pass} AS hidden_pass,
        ({col('input_tokens', '0')} + {col('output_tokens', '0')})::DOUBLE AS tokens,
        {f'{cost_col}::DOUBLE' if cost_col else 'NULL::DOUBLE'} AS cost,
        {col('duration_s', 'NULL')}::DOUBLE AS duration_s, {col('reused_from', "''")} AS reused_from,
        coalesce({col('flag', "''")}, '') AS flag{named}
        FROM {scan}""")
    info = {"files": [str(p) for p in paths], "runs": runs, "arm_by_run": bool(shared), "run_labels": labels,
            "progress": progress_col or ("proxy: public test fraction" if proxy != "score" else "proxy: score"),
            "cost": cost_col, "hidden": has_hidden, "notes": notes,
            "metrics": [{"name": m.name, "unit": m.unit, "higher_is_better": m.higher_is_better} for m in metrics]}
    return con, info
