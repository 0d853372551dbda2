"""Render scores and differences for people: rich tables for the terminal, Markdown for artifacts."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def pts(x: float) -> str:
    return f"{100 * x:+.1f}"


def print_comparison(scores: list[dict], diffs: list[dict], console: Console | None = None) -> None:
    console = console or Console()
    table = Table(title="Pass rate by variant (95% CI, clustered by case)")
    for col in ("variant", "trials", "infra errors", "pass rate", "95% CI", "tokens/trial", "s/trial"):
        table.add_column(col, justify="left" if col == "variant" else "right")
    for s in scores:
        table.add_row(s["variant"], str(s["trials"]), str(s["infra_errors"]), pct(s["pass_rate"] or 0),
                      f"[{pct(s['ci_low'])}, {pct(s['ci_high'])}]", f"{s['tokens_per_trial'] or 0:.0f}",
                      f"{s['seconds_per_trial'] or 0:.2f}")
    console.print(table)
    if diffs:
        dt = Table(title="Paired difference over shared cases (points)")
        for col in ("comparison", "cases", "difference", "95% CI", "verdict"):
            dt.add_column(col, justify="left" if col in ("comparison", "verdict") else "right")
        for d in diffs:
            dt.add_row(f"{d['variant']} − {d['baseline']}", str(d["cases"]), pts(d["diff"]),
                       f"[{pts(d['ci_low'])}, {pts(d['ci_high'])}]", d["verdict"])
        console.print(dt)


def comparison_markdown(scores: list[dict], diffs: list[dict]) -> str:
    lines = ["| variant | trials | infra errors | pass rate | 95% CI |", "|---|---:|---:|---:|---|"]
    for s in scores:
        lines.append(f"| {s['variant']} | {s['trials']} | {s['infra_errors']} | {pct(s['pass_rate'] or 0)} | "
                     f"[{pct(s['ci_low'])}, {pct(s['ci_high'])}] |")
    if diffs:
        lines += ["", "| comparison | cases | difference (pts) | 95% CI | verdict |", "|---|---:|---:|---|---|"]
        for d in diffs:
            lines.append(f"| {d['variant']} − {d['baseline']} | {d['cases']} | {pts(d['diff'])} | "
                         f"[{pts(d['ci_low'])}, {pts(d['ci_high'])}] | {d['verdict']} |")
    return "\n".join(lines) + "\n"
