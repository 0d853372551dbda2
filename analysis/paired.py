"""Paired comparisons of two arms over the cases both ran, with a calibrated verdict.

Per case the seeds of each arm are averaged and B − A is taken; the mean of those differences is the
estimate, their spread gives the paired standard error and a bootstrap interval over cases, McNemar
(clustered when there are seeds) gives the p-value, and A/A repeats give the noise floor. A difference
is called real only when p < 0.05 *and* it is larger than the noise floor. Every named metric gets the
same calculation; for one where lower is better (a time, a count of bad files) "better" means lower.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import duckdb
import numpy as np
import pyarrow as pa

from nightshift.analysis import noise
from nightshift.analysis.scores import case_table, paired_metrics
from nightshift.analysis.source import one_row, score_metrics
from nightshift.analysis.stats import ALPHA, Z95, bootstrap_ci, mdd, paired_test, seeds_needed

DETECT = 0.03  # the difference "seeds needed" is computed for unless the caller names another


@dataclass
class Comparison:
    """One paired comparison B − A on one metric over one scope of cases; all differences as fractions."""

    baseline: str
    variant: str
    metric: str
    scope: str
    cases: int
    seeds: float
    diff: float
    se: float
    ci_low: float
    ci_high: float
    p: float
    test: str
    noise_floor: float | None
    floor_source: str
    mdd: float | None  # None: the differences had no spread to size a test from
    detect: float
    seeds_needed: int | None
    cases_needed: int | None
    verdict: str
    line: str
    unit: str = "fraction"  # 'fraction': differences in points; otherwise in this unit
    higher_is_better: bool = True
    harness_change: str = ""  # across runs: what changed in the variant's harness (the thing compared), if anything


def case_stats(con: duckdb.DuckDBPyConnection) -> None:
    """View ``case_stats`` over ``cases``: per (arm, case) trial count, mean and between-seed variance."""
    cols = ", ".join(f"n_{m}, s_{m} / n_{m} AS m_{m}, CASE WHEN n_{m} >= 2 THEN "
                     f"greatest(q_{m} - s_{m} * s_{m} / n_{m}, 0) / (n_{m} - 1) END AS v_{m}"
                     for m in paired_metrics(con))
    con.execute(f"""CREATE OR REPLACE TEMP VIEW case_stats AS
        SELECT arm, case_id, domain, split, n, {cols} FROM cases WHERE n > 0""")


def pair_arrays(con: duckdb.DuckDBPyConnection, pairs: list[tuple[str, str]]) -> list[dict[str, np.ndarray]]:
    """Per pair (A, B), aligned NumPy arrays over the cases both ran: domain, split, n_a, n_b, m_/v_ per metric.

    One query for all pairs, so thousands of comparisons (the calibration tests) cost one join.
    """
    if not pairs:
        return []
    con.register("wanted_pairs", pa.table({"k": list(range(len(pairs))), "a": [a for a, _ in pairs],
                                           "b": [b for _, b in pairs]}))
    cols = ", ".join(f"a.m_{m} AS m_{m}_a, b.m_{m} AS m_{m}_b, a.v_{m} AS v_{m}_a, b.v_{m} AS v_{m}_b, "
                     f"a.n_{m} AS n_{m}_a, b.n_{m} AS n_{m}_b" for m in paired_metrics(con))
    labels = {key: [r[0] for r in con.execute(f"SELECT DISTINCT {key} FROM cases ORDER BY 1").fetchall()]
              for key in ("domain", "split")}
    # domain and split travel as small integer codes: strings are slow to hand from DuckDB to NumPy
    arrays = con.execute(f"""SELECT p.k, list_position($domains, a.domain) AS domain,
            list_position($splits, a.split) AS split, a.n AS n_a, b.n AS n_b, {cols}
        FROM wanted_pairs p JOIN case_stats a ON a.arm = p.a
        JOIN case_stats b ON b.arm = p.b AND b.case_id = a.case_id
        ORDER BY p.k""", {"domains": labels["domain"], "splits": labels["split"]}).fetchnumpy()
    con.unregister("wanted_pairs")
    columns = {k: floats(v) for k, v in arrays.items()}
    for key in ("domain", "split"):
        columns[key] = np.asarray(labels[key] + [None], dtype=object)[columns[key].astype(int) - 1]
    bounds = np.searchsorted(columns.pop("k"), np.arange(len(pairs) + 1))
    return [{k: v[lo:hi] for k, v in columns.items()} for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def floats(column: np.ndarray) -> np.ndarray:
    """A DuckDB NumPy column as floats, SQL NULL (a masked entry) as NaN."""
    return np.ma.filled(np.ma.asarray(column, dtype=float), np.nan)


def compare(arrays: dict[str, np.ndarray], a: str, b: str, metric: str = "pass_rate", scope: str = "all",
            binary: bool = True, extra_floor: float | None = None, detect: float = DETECT,
            bootstrap: bool = True, unit: str = "fraction", higher_is_better: bool = True) -> Comparison:
    """The comparison B − A from aligned per-case arrays (see ``pair_arrays``); the whole calculation.

    ``unit`` other than 'fraction' reports the difference in that unit and sizes no seeds (``detect``
    is in points); ``higher_is_better=False`` turns the verdict around.
    """
    scored = np.isfinite(arrays[f"m_{metric}_a"]) & np.isfinite(arrays[f"m_{metric}_b"])
    if not scored.all():  # a case whose trials have no value for this metric is not a pair for it
        arrays = {k: v[scored] for k, v in arrays.items()}
    # trials with a value for this metric (a named metric may have none for some trials)
    n_a, n_b = arrays.get(f"n_{metric}_a", arrays["n_a"]), arrays.get(f"n_{metric}_b", arrays["n_b"])
    mean_a, mean_b = arrays[f"m_{metric}_a"], arrays[f"m_{metric}_b"]
    var_a, var_b = arrays[f"v_{metric}_a"], arrays[f"v_{metric}_b"]
    d = mean_b - mean_a
    n = d.size
    diff = float(d.mean()) if n else math.nan
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    low, high = bootstrap_ci(d) if bootstrap else (diff - Z95 * se, diff + Z95 * se)
    single = bool(binary and n and (n_a == 1).all() and (n_b == 1).all())
    test = paired_test(np.minimum(n_a, n_b) * d, single_binary=single)
    floor, source = noise.seed_floor(var_a, n_a, var_b, n_b), "seeds"
    if extra_floor is not None and (floor is None or extra_floor > floor):
        floor, source = extra_floor, "A/A runs"
    var_seed, var_between = _variance_parts(d, var_a, n_a, var_b, n_b)
    fraction = unit == "fraction"
    k_needed = seeds_needed(detect, var_between, var_seed, n) if fraction else None
    n_needed = (max(2, math.ceil((mdd(1.0) / detect) ** 2 * float(d.var(ddof=1))))
                if n > 1 and detect > 0 and fraction else None)
    verdict = _verdict(diff, test.p, floor, b, higher_is_better)
    amount = _pts if fraction else _plain
    what = "" if metric in ("pass_rate", "progress") else f"{metric.replace('_', ' ')}: "  # named metrics say so
    unit_word = "pts" if fraction else unit
    floor_text = (f"±{amount(floor).lstrip('+')}" if floor is not None
                  else f"not measured ({noise.why_unmeasured(n_a, n_b)})")
    line = (f"{what}{b} − {a} = {amount(diff)} {unit_word} [{amount(low)}, {amount(high)}], {_p(test.p)}, "
            f"noise floor {floor_text} → {verdict}")
    return Comparison(a, b, metric, scope, n, float(np.mean((n_a + n_b) / 2)) if n else 0.0, diff, se, low, high,
                      test.p, test.method, floor, source if floor is not None else "none",
                      mdd(se) if se > 0 else None, detect,  # zero (or no) spread measures nothing: no MDD
                      k_needed, n_needed, verdict, line, unit, higher_is_better)


def _variance_parts(d: np.ndarray, var_a: np.ndarray, n_a: np.ndarray, var_b: np.ndarray, n_b: np.ndarray
                    ) -> tuple[float, float]:
    """Split Var(per-case difference) into a per-seed part (shrinks with seeds) and a between-case part."""
    if d.size < 2:
        return math.nan, math.nan
    ok = (n_a >= 2) & (n_b >= 2) & np.isfinite(var_a) & np.isfinite(var_b)
    total = float(d.var(ddof=1))
    if ok.sum() < 2:  # one seed: cannot split; treat it all as seed noise (the most seeds could help)
        return total * float(np.mean((n_a + n_b) / 2)), 0.0
    var_seed = float((var_a[ok] + var_b[ok]).mean())
    return var_seed, max(0.0, total - float((var_a[ok] / n_a[ok] + var_b[ok] / n_b[ok]).mean()))


def _verdict(diff: float, p: float, floor: float | None, variant: str, higher_is_better: bool = True) -> str:
    if math.isnan(diff) or p >= ALPHA or (floor is not None and abs(diff) <= floor):
        return "within noise"
    return f"{variant} better" if (diff > 0) == higher_is_better else f"{variant} worse"


def _pts(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:+.1f}"


def _plain(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{x:+.3g}"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def binary_scores(con: duckdb.DuckDBPyConnection, column: str = "score") -> bool:
    """Whether every non-infra value of ``column`` is 0 or 1 (McNemar applies)."""
    return bool(one_row(con, f"SELECT coalesce(bool_and({column} IN (0, 1)), true) FROM trials WHERE NOT infra")[0])


def comparisons(con: duckdb.DuckDBPyConnection, pairs: list[tuple[str, str]], files: list[str],
                detect: float = DETECT, breakdowns: bool = True, bootstrap: bool = True,
                aa: list[tuple[str, str]] | None = None) -> list[Comparison]:
    """Every comparison of ``pairs`` (baseline, variant): both metrics, overall and by domain and split.

    ``bootstrap=False`` gives normal intervals instead of bootstrap ones; verdicts do not depend on it.
    ``aa`` are the A/A pairs of runs, when the caller has found them already.
    """
    if not one_row(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'cases'")[0]:
        case_table(con)
    case_stats(con)
    named = {m.name: m for m in score_metrics(con)}
    # which metrics McNemar applies to: the pass rate when it is 0/1, and named 0/1 rates
    binary = {"pass_rate": binary_scores(con), "progress": False,
              **{m: info.fraction and binary_scores(con, m) for m, info in named.items()}}
    aa = noise.aa_run_pairs(con, files) if aa is None else aa
    run_of = dict(con.execute("SELECT arm, any_value(run_id) FROM trials GROUP BY arm").fetchall())
    metrics = paired_metrics(con)
    # metric -> A/A pair of runs -> the run-to-run floor it measured
    floors: dict[str, dict[frozenset[str], float]] = {m: {} for m in metrics}
    for pair, arr in zip(aa, pair_arrays(con, aa), strict=True):
        for m in metrics:
            d = arr[f"m_{m}_b"] - arr[f"m_{m}_a"]
            floors[m][frozenset(pair)] = noise.run_floor(d[np.isfinite(d)])
    out = []
    for (a, b), arrays in zip(pairs, pair_arrays(con, pairs), strict=True):
        for metric in metrics:
            extra = None
            if run_of[a] != run_of[b]:  # across runs: the run-to-run noise of other A/A pairs counts too
                extra = max((f for pair, f in floors[metric].items() if pair != {a, b} and not math.isnan(f)),
                            default=None)
            info = named.get(metric)
            unit, higher = (info.unit, info.higher_is_better) if info else ("fraction", True)
            out.append(compare(arrays, a, b, metric, "all", binary[metric], extra, detect, bootstrap,
                               unit=unit, higher_is_better=higher))
            if not breakdowns:
                continue
            for key in ("domain", "split"):
                for value in sorted(set(arrays[key].tolist())):
                    mask = arrays[key] == value
                    sub = {k: v[mask] for k, v in arrays.items()}
                    out.append(compare(sub, a, b, metric, f"{key}={value}", binary[metric], None, detect,
                                       bootstrap, unit=unit, higher_is_better=higher))
    return out


def as_dicts(items: list[Comparison]) -> list[dict]:
    """Comparisons as plain dicts (for JSON, Prefect table artifacts and the first version's callers)."""
    return [asdict(c) for c in items]
