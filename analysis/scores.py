"""Per-arm scores with case-clustered standard errors, computed in DuckDB SQL over the ``trials`` view.

Every metric is a mean over trials with its cluster-robust (CR1) standard error, clustered by case:
seeds of one case share its difficulty, so they are not independent evidence. Infra errors are
excluded from every denominator and counted in ``infra_errors``. Named metrics (``score.<name>``
columns, see analysis.source) get the same treatment; a trial without a value for one is left out of
that metric only. See docs/ANALYSIS.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import duckdb

from nightshift.analysis.source import one_row, score_metrics
from nightshift.analysis.stats import Z95

# metric name -> (column of the trials view, bounded to [0, 1]?)
METRICS: dict[str, tuple[str, bool]] = {
    "pass_rate": ("score", True),
    "progress": ("progress", True),
    "public_pass": ("public_pass", True),
    "hidden_pass": ("hidden_pass", True),
    "tokens": ("tokens", False),
    "cost": ("cost", False),
    "duration_s": ("duration_s", False),
}
STATUSES = ("resolved", "failed", "timeout", "step_limit", "token_limit", "cost_limit", "agent_error", "infra_error")
HEADLINE = ("pass_rate", "progress")  # paired comparisons always cover these two, then every named metric


def metrics_of(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[str, bool | None]]:
    """METRICS plus the named metrics of these rows: name -> (column, bounded to [0, 1]? None: unbounded
    and possibly negative)."""
    named = {m.name: (m.name, True if m.fraction else (False if m.nonnegative else None))
             for m in score_metrics(con)}
    return {**METRICS, **named}


def paired_metrics(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The metrics compared pair by pair: pass rate, progress, then every named metric."""
    return [*HEADLINE, *(m.name for m in score_metrics(con))]


def case_table(con: duckdb.DuckDBPyConnection) -> None:
    """TEMP TABLE ``cases``: one row per (arm, case) with the counts, sums and squares every later query needs.

    The one heavy pass over the trial rows: scores, breakdowns and paired comparisons all read it.
    """
    metrics = metrics_of(con)
    sums = ", ".join(f"count({col}) FILTER (WHERE NOT infra) AS n_{m}, sum({col}) FILTER (WHERE NOT infra) AS s_{m}"
                     for m, (col, _) in metrics.items())
    squares = ", ".join(f"sum({metrics[m][0]} * {metrics[m][0]}) FILTER (WHERE NOT infra) AS q_{m}"
                        for m in paired_metrics(con))
    con.execute(f"""CREATE OR REPLACE TEMP TABLE cases AS
        SELECT arm, case_id, any_value(domain) AS domain, any_value(split) AS split,
               count(*) FILTER (WHERE infra) AS infra_n, count(*) FILTER (WHERE NOT infra) AS n, {sums}, {squares}
        FROM trials GROUP BY arm, case_id""")


def clustered_scores(con: duckdb.DuckDBPyConnection, by: Sequence[str] = ()) -> list[dict]:
    """One row per arm (and per value of each ``by`` column): every metric, its clustered SE and 95% CI.

    Reads the ``cases`` table (see ``case_table``). The CR1 variance of a mean over clusters g with n_g
    trials summing to S_g is G/(G-1) · Σ_g (S_g - n_g·mean)² / N², expanded into sums one GROUP BY gives.
    """
    keys = ", ".join(["arm", *by])
    metrics = metrics_of(con)
    parts = []
    for m in metrics:
        mean = f"(sum(s_{m}) / nullif(sum(n_{m}), 0))"
        g = f"count(*) FILTER (WHERE n_{m} > 0)"
        ss = (f"(sum(s_{m} * s_{m}) - 2 * {mean} * sum(s_{m} * n_{m}) + {mean} * {mean} * sum(n_{m} * n_{m}))")
        var = f"({g} / nullif({g} - 1, 0)::DOUBLE * greatest({ss}, 0) / (sum(n_{m}) * sum(n_{m}))::DOUBLE)"
        parts.append(f"{mean} AS {m}, sqrt({var}) AS {m}_se, sum(n_{m})::BIGINT AS {m}_n")
    cur = con.execute(f"""SELECT {keys}, sum(n)::BIGINT AS trials, sum(infra_n)::BIGINT AS infra_errors,
           count(*) FILTER (WHERE n > 0) AS cases, {", ".join(parts)}
        FROM cases GROUP BY ALL ORDER BY ALL""")
    names = [d[0] for d in cur.description]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    for row in rows:
        row["variant"] = row["arm"]
        for m, (_, bounded) in metrics.items():
            _interval(row, m, bounded)
    return rows


def _interval(row: dict, metric: str, bounded: bool | None) -> None:
    mean, se = row[metric], row[f"{metric}_se"]
    if mean is None:
        row[f"{metric}_se"] = row[f"{metric}_low"] = row[f"{metric}_high"] = None
        return
    se = 0.0 if se is None or math.isnan(se) else se
    low, high = mean - Z95 * se, mean + Z95 * se
    if bounded is not None:  # a rate, a count or a duration: never < 0
        low = max(0.0, low)
    if bounded:
        high = min(1.0, high)
    row[f"{metric}_se"], row[f"{metric}_low"], row[f"{metric}_high"] = se, low, high


def status_counts(con: duckdb.DuckDBPyConnection) -> list[dict]:
    """Trials per arm and status, every status a column; infra errors are here, never hidden."""
    table: dict[str, dict] = {}
    for arm, status, n in con.execute("SELECT arm, status, count(*) FROM trials GROUP BY ALL ORDER BY arm"
                                      ).fetchall():
        row = table.setdefault(arm, {"arm": arm, "total": 0, **dict.fromkeys(STATUSES, 0), "other": 0})
        row[status if status in STATUSES else "other"] += n
        row["total"] += n
    return list(table.values())


def histogram(con: duckdb.DuckDBPyConnection, column: str, bins: int = 30, log: bool = False) -> dict:
    """Counts per arm of ``column`` (tokens or duration_s) in ``bins`` equal bins over all arms' range.

    Binned in SQL so a million rows never leave DuckDB; infra errors are left out as everywhere else.
    ``log=True`` makes the bins equal in log scale (for long-tailed counts such as tokens).
    """
    x = f"ln(greatest({column}, 1))" if log else column
    low, high = one_row(con, f"SELECT min({x}), max({x}) FROM trials WHERE NOT infra")
    if low is None:
        return {"edges": [], "counts": {}, "log": log}
    width = (high - low) / bins or 1.0
    rows = con.execute(f"""SELECT arm, least(floor(({x} - ?) / ?)::INTEGER, ? - 1) AS bin, count(*)
        FROM trials WHERE NOT infra AND {column} IS NOT NULL GROUP BY ALL""", [low, width, bins]).fetchall()
    counts: dict[str, list[int]] = {}
    for arm, b, n in rows:
        counts.setdefault(arm, [0] * bins)[b] = n
    edges = [low + i * width for i in range(bins + 1)]
    return {"edges": [math.exp(e) for e in edges] if log else edges, "counts": dict(sorted(counts.items())),
            "log": log}
