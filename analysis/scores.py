"""Per-variant pass rates and paired differences, computed in DuckDB SQL over Parquet.

Intervals treat the case as the unit: a case's seeds are averaged first, so several seeds of one
case do not count as independent evidence (a cluster-robust standard error over cases). Infra
errors are excluded from every denominator and counted separately. See docs/ANALYSIS.md.
"""

from __future__ import annotations

import math
from pathlib import Path

import duckdb

Z95 = 1.959964


def _connect() -> duckdb.DuckDBPyConnection:
    return duckdb.connect(":memory:")


def _scan(parquet: Path | list[Path]) -> str:
    paths = [parquet] if isinstance(parquet, Path | str) else parquet
    return "read_parquet([" + ", ".join(f"'{Path(p).as_posix()}'" for p in paths) + "])"


def variant_scores(parquet: Path | list[Path]) -> list[dict]:
    """One row per variant: trials, infra errors, pass rate, its clustered SE and 95% interval."""
    sql = f"""
    WITH t AS (SELECT * FROM {_scan(parquet)}),
    per_case AS (
        SELECT variant, case_id, avg(score) AS s
        FROM t WHERE status <> 'infra_error' GROUP BY variant, case_id)
    SELECT v.variant,
           count(*) FILTER (WHERE t.status <> 'infra_error') AS trials,
           count(*) FILTER (WHERE t.status = 'infra_error') AS infra_errors,
           (SELECT count(*) FROM per_case p WHERE p.variant = v.variant) AS cases,
           (SELECT avg(s) FROM per_case p WHERE p.variant = v.variant) AS pass_rate,
           (SELECT stddev_samp(s) / sqrt(count(*)) FROM per_case p WHERE p.variant = v.variant) AS se,
           avg(t.input_tokens + t.output_tokens) AS tokens_per_trial,
           avg(t.duration_s) AS seconds_per_trial
    FROM (SELECT DISTINCT variant FROM t) v JOIN t USING (variant)
    GROUP BY v.variant ORDER BY v.variant
    """
    con = _connect()
    cols = ["variant", "trials", "infra_errors", "cases", "pass_rate", "se", "tokens_per_trial", "seconds_per_trial"]
    rows = [dict(zip(cols, r, strict=True)) for r in con.execute(sql).fetchall()]
    for row in rows:
        se = row["se"] if row["se"] is not None and not math.isnan(row["se"]) else 0.0
        rate = row["pass_rate"] or 0.0
        row["se"] = se
        row["ci_low"], row["ci_high"] = max(0.0, rate - Z95 * se), min(1.0, rate + Z95 * se)
    return rows


def paired_differences(parquet: Path | list[Path], baseline: str | None = None) -> list[dict]:
    """For each variant B against the baseline A: mean over shared cases of (B − A), paired SE, 95% CI."""
    con = _connect()
    con.execute(f"""CREATE TEMP TABLE per_case AS
        SELECT variant, case_id, avg(score) AS s FROM {_scan(parquet)}
        WHERE status <> 'infra_error' GROUP BY variant, case_id""")
    variants = [r[0] for r in con.execute("SELECT DISTINCT variant FROM per_case ORDER BY variant").fetchall()]
    if not variants:
        return []
    base = baseline or variants[0]
    out = []
    for other in (v for v in variants if v != base):
        n, diff, sd = con.execute("""
            SELECT count(*), avg(b.s - a.s), stddev_samp(b.s - a.s)
            FROM per_case a JOIN per_case b USING (case_id)
            WHERE a.variant = ? AND b.variant = ?""", [base, other]).fetchone()
        se = (sd or 0.0) / math.sqrt(n) if n else 0.0
        diff = diff or 0.0
        out.append({"baseline": base, "variant": other, "cases": n, "diff": diff, "se": se,
                    "ci_low": diff - Z95 * se, "ci_high": diff + Z95 * se,
                    "verdict": _verdict(diff, se, other, base)})
    return out


def _verdict(diff: float, se: float, other: str, base: str) -> str:
    if diff - Z95 * se > 0:
        return f"{other} better"
    if diff + Z95 * se < 0:
        return f"{other} worse"
    return "within noise"
