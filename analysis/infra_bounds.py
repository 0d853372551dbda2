"""Infra exclusion made visible: how many trials each arm (and each case) lost to infra errors, and what the
verdict would be had they not been excluded.

Excluding infra errors is right when they strike at random, but they rarely do: an endpoint that stalls
hits the long trials most, and those tend to fail. So for every compared pair with infra errors left, the
pass-rate difference is bounded as if every excluded trial had failed and as if it had passed (the
variant's worst against the baseline's best, and the other way round). When those bounds straddle the
verdict (a "better" or "worse" whose sign they could flip), the verdict is marked not trustworthy.
"""

from __future__ import annotations

import duckdb

from nightshift.analysis.paired import Comparison


def _arm_counts(con: duckdb.DuckDBPyConnection) -> dict[str, tuple[int, float, int]]:
    """arm -> (scored trials, sum of scores, infra errors), from the ``cases`` table."""
    rows = con.execute("SELECT arm, sum(n_pass_rate)::BIGINT, coalesce(sum(s_pass_rate), 0), sum(infra_n)::BIGINT "
                       "FROM cases GROUP BY arm").fetchall()
    return {arm: (int(n or 0), float(s or 0), int(i or 0)) for arm, n, s, i in rows}


def _share(n: int, i: int) -> str:
    return f"{i}/{n + i} ({100 * i / (n + i):.1f}%)" if n + i else "0/0"


def bounds(counts: tuple[int, float, int]) -> tuple[float, float]:
    """Pass rate with every infra error counted as a failure, and as a pass."""
    n, s, i = counts
    total = n + i
    return (s / total, (s + i) / total) if total else (float("nan"), float("nan"))


def infra_lines(con: duckdb.DuckDBPyConnection, headline: list[Comparison], max_cases: int = 10) -> list[str]:
    """What the report and ``compare`` print about infra errors (empty when there are none)."""
    counts = _arm_counts(con)
    if not any(i for _, _, i in counts.values()):
        return []
    shares = ", ".join(f"{arm} {_share(n, i)}" for arm, (n, _, i) in sorted(counts.items()))
    lines = [f"infra errors excluded: {shares}"]
    for c in headline:
        a, b = counts.get(c.baseline), counts.get(c.variant)
        if not a or not b or not (a[2] or b[2]):
            continue
        (a_low, a_high), (b_low, b_high) = bounds(a), bounds(b)
        low, high = b_low - a_high, b_high - a_low
        uneven = abs(a[2] / max(1, a[0] + a[2]) - b[2] / max(1, b[0] + b[2])) > 1e-9
        line = (f"{c.variant} − {c.baseline}: {100 * c.diff:+.1f} pts with infra errors excluded"
                f"{' (their share differs between the two)' if uneven else ''}; bounds {100 * low:+.1f} pts if "
                f"every excluded trial had failed for {c.variant} and passed for {c.baseline}, {100 * high:+.1f} "
                f"pts the other way round")
        if c.verdict != "within noise" and low < 0 < high:
            line += f"; the verdict '{c.verdict}' is not trustworthy: the bounds straddle it"
        lines.append(line)
    cases = con.execute("""SELECT case_id, string_agg(arm || ' ' || infra_n || '/' || (n + infra_n), ', ' ORDER BY arm),
                                  sum(infra_n) AS lost
                           FROM cases GROUP BY case_id HAVING sum(infra_n) > 0 ORDER BY lost DESC, case_id
                           LIMIT ?""", [max_cases]).fetchall()
    lines.append("infra errors by case: " + "; ".join(f"{case} ({arms})" for case, arms, _ in cases))
    return lines
