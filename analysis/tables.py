"""Render scores and comparisons for people: rich tables for the terminal, Markdown for artifacts.

Formatting only; every number comes from analysis.scores / analysis.paired.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from nightshift.analysis.summary import Analysis


def pct(x: float | None) -> str:
    """A fraction as a percentage with one decimal; ``–`` when there is no value."""
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def pts(x: float | None) -> str:
    """A difference of fractions as signed percentage points."""
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.1f}"


def num(x: float | None, digits: int = 0) -> str:
    """A plain number, or ``–``."""
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:,.{digits}f}"


def interval(row: dict, metric: str) -> str:
    """A metric's 95% interval as ``[low, high]`` in percent (without the % signs, to stay narrow)."""
    low, high = row.get(f"{metric}_low"), row.get(f"{metric}_high")
    return "–" if low is None or high is None else f"[{100 * low:.1f}, {100 * high:.1f}]"


def p_value(p: float) -> str:
    """``< 0.001`` or three decimals."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


SCORE_HEADERS = ("arm", "trials", "infra (excl.)", "cases", "pass rate", "95% CI", "progress", "95% CI ",
                 "public pass", "hidden pass", "tokens/trial", "cost/trial", "s/trial")
DIFF_HEADERS = ("comparison", "metric", "scope", "cases", "diff (pts)", "95% CI", "p", "noise floor", "MDD 80%",
                "verdict")  # a named metric with a unit shows its differences in that unit (the metric cell says)


def diff_headers(diffs: list[dict]) -> tuple[str, ...]:
    """DIFF_HEADERS, with the difference column in points only when every row is a fraction."""
    if all(d.get("unit", "fraction") == "fraction" for d in diffs):
        return DIFF_HEADERS
    return tuple("diff" if h == "diff (pts)" else h for h in DIFF_HEADERS)
METRIC_HEADERS = ("arm", "metric", "better", "trials with a value", "mean", "95% CI")


def metric_label(name: str, unit: str = "fraction") -> str:
    """``time_to_pass``, ``s`` -> ``time to pass (s)``; rates carry no unit."""
    return name.replace("_", " ") + ("" if unit in ("fraction", "") else f" ({unit})")


def amount(x: float | None, unit: str = "fraction", signed: bool = True) -> str:
    """A value (or difference) of a metric: points/percent for rates, three significant digits otherwise."""
    if unit == "fraction":
        return pts(x) if signed else pct(x)
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else (f"{x:+.3g}" if signed else f"{x:.3g}")


def metric_rows(scores: list[dict], metrics: list[dict]) -> list[list[str]]:
    """One row per arm and named metric (the cells of METRIC_HEADERS); metrics are ``info['metrics']``."""
    rows = []
    for s in scores:
        for m in metrics:
            name, unit = m["name"], m.get("unit", "fraction")
            low, high = s.get(f"{name}_low"), s.get(f"{name}_high")
            ci = "–" if low is None else f"[{amount(low, unit, False)}, {amount(high, unit, False)}]"
            rows.append([s["variant"], metric_label(name, unit), "higher" if m.get("higher_is_better", True)
                         else "lower", str(s.get(f"{name}_n", "–")), amount(s.get(name), unit, False), ci])
    return rows


def score_rows(scores: list[dict]) -> list[list[str]]:
    """One table row per arm (the cells of SCORE_HEADERS)."""
    return [[s["variant"], str(s["trials"]), str(s["infra_errors"]), str(s.get("cases", "–")),
             pct(s["pass_rate"]), interval(s, "pass_rate"), pct(s.get("progress")), interval(s, "progress"),
             pct(s.get("public_pass")), pct(s.get("hidden_pass")),
             num(s.get("tokens", s.get("tokens_per_trial"))),
             "–" if s.get("cost") is None else f"${s['cost']:.4f}",
             num(s.get("duration_s", s.get("seconds_per_trial")), 2)] for s in scores]


def diff_rows(diffs: list[dict]) -> list[list[str]]:
    """One table row per comparison (the cells of DIFF_HEADERS)."""
    rows = []
    for d in diffs:
        floor, unit = d.get("noise_floor"), d.get("unit", "fraction")
        mdd = d.get("mdd")
        rows.append([f"{d['variant']} − {d['baseline']}", metric_label(d.get("metric", "pass_rate"), unit),
                     d.get("scope", "all"), str(d["cases"]), amount(d["diff"], unit),
                     f"[{amount(d['ci_low'], unit)}, {amount(d['ci_high'], unit)}]",
                     p_value(d["p"]) if "p" in d else "–",
                     "–" if floor is None else "±" + amount(floor, unit).lstrip("+"),
                     "–" if mdd is None or math.isnan(mdd) else amount(mdd, unit).lstrip("+"), d["verdict"]])
    return rows


def drop_empty(headers: tuple[str, ...] | list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """Leave out columns with no value in any row (cost when the rows carry no cost, for example)."""
    keep = [i for i in range(len(headers)) if not rows or any(r[i] != "–" for r in rows)]
    return [headers[i] for i in keep], [[r[i] for i in keep] for r in rows]


def print_comparison(scores: list[dict], diffs: list[dict], console: Console | None = None,
                     metrics: list[dict] | None = None) -> None:
    """Scores, named metrics, comparisons and one verdict line per comparison, for the terminal."""
    console = console or Console()
    table = Table(title="Scores by arm (95% CI, clustered by case; infra errors excluded)")
    headers, rows = drop_empty(SCORE_HEADERS, score_rows(scores))
    for col in headers:  # an arm's name is never cut: it is what the reader looks for
        table.add_column(col, justify="left" if col == "arm" else "right", overflow="fold",
                         min_width=max([len(col), *(len(r[0]) for r in rows)]) if col == "arm" else None)
    for row in rows:
        table.add_row(*row)
    console.print(table)
    if metrics:
        mt = Table(title="Named metrics by arm (95% CI, clustered by case; trials without a value left out)")
        for col in METRIC_HEADERS:
            mt.add_column(col, justify="left" if col in ("arm", "metric", "better") else "right", overflow="fold")
        for row in metric_rows(scores, metrics):
            mt.add_row(*row)
        console.print(mt)
    if diffs:
        # a fraction's difference reads in points; a metric in x or s in its own unit
        diff_cols = diff_headers(diffs)
        dt = Table(title="Paired differences over shared cases "
                         + ("(points)" if diff_cols == DIFF_HEADERS else "(points, or the metric's own unit)"))
        for col in diff_cols:
            dt.add_column(col, justify="left" if col in ("comparison", "metric", "scope", "verdict") else "right",
                          overflow="fold")  # wrapped, never cut with an ellipsis
        for row in diff_rows(diffs):
            dt.add_row(*row)
        console.print(dt)
        for d in diffs:  # the pass rate's verdicts first, then each metric's
            if "line" in d and d.get("metric", "pass_rate") == "pass_rate":
                console.print(d["line"], markup=False, highlight=False, soft_wrap=True)
        for d in diffs:  # named metrics (progress lines stay in the report, as before)
            if "line" in d and d.get("metric", "pass_rate") not in ("pass_rate", "progress"):
                console.print(d["line"], markup=False, highlight=False, soft_wrap=True)


def markdown_table(headers: tuple[str, ...] | list[str], rows: list[list[str]]) -> str:
    """A GitHub Markdown table; the first column left-aligned, the rest right-aligned."""
    align = ["---"] + ["---:"] * (len(headers) - 1)
    lines = ["| " + " | ".join(h.strip() for h in headers) + " |", "|" + "|".join(align) + "|"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"

def power_lines(analysis: Analysis) -> list[str]:
    """Per headline comparison: the minimum detectable difference now, and the seeds a chosen difference needs."""
    lines = []
    for c in analysis.headline():
        seeds = ("more seeds alone cannot (the cases disagree)" if c.seeds_needed is None
                 else f"{c.seeds_needed} seed{'s' if c.seeds_needed > 1 else ''} per case")
        cases = "" if c.cases_needed is None else f", or about {c.cases_needed:,} cases at {c.seeds:.1f} seeds"
        if c.mdd is None:
            lines.append(f"{c.variant} − {c.baseline}: with {c.cases} cases × {c.seeds:.1f} seeds every paired "
                         "difference is the same, so no minimum detectable difference can be estimated (zero "
                         "variance says the arms behaved alike here, e.g. a setting the model ignores, not that "
                         "any difference would be seen); add cases or seeds.")
            continue
        need = "this size is already enough" if c.mdd <= c.detect else f"{seeds}{cases}"
        lines.append(f"{c.variant} − {c.baseline}: with {c.cases} cases × {c.seeds:.1f} seeds the minimum detectable "
                     f"difference at 80% power is {100 * c.mdd:.1f} pts; to detect {100 * c.detect:.1f} pts: {need}.")
    return lines


def noise_lines(analysis: Analysis) -> list[str]:
    """How the noise floor was measured for each arm and each A/A pair of runs."""
    lines = []
    for n in analysis.arm_noise:
        floor = (f"not measured ({n.get('unmeasured', 'one seed per case')})" if n["floor"] is None
                 else f"±{100 * n['floor']:.1f} pts")
        lines.append(f"{n['arm']}: A/A over seeds ({n['cases']} cases × {n['seeds']:.1f} seeds): {floor}")
    for a, b in analysis.aa_pairs:
        lines.append(f"A/A runs (identical pins): {a} and {b}; their difference sets the floor of cross-run "
                     "comparisons")
    lines += [change.line() for change in analysis.harness_changes]  # never an A/A pair: what is compared
    return lines
