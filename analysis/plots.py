"""The report's plots, drawn with matplotlib (Agg) and returned as PNG bytes ready to embed.

Each function takes numbers the analysis already computed; none reads files or runs SQL.
"""

from __future__ import annotations

import io
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def _png(fig: plt.Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


def _ok(x: float | None) -> bool:
    return x is not None and not math.isnan(x)


def _scale(unit: str) -> tuple[float, str]:
    """How a metric's values are drawn: rates as percent, anything else in its own unit."""
    return (100.0, "%") if unit == "fraction" else (1.0, unit or "value")


def _dots(ax: plt.Axes, scores: list[dict], metric: str, unit: str) -> None:
    scale, suffix = _scale(unit)
    for i, s in enumerate(scores):
        if not _ok(s.get(metric)) or not _ok(s.get(f"{metric}_low")):
            continue
        value, lo, hi = (scale * s[k] for k in (metric, f"{metric}_low", f"{metric}_high"))
        ax.errorbar(value, i, xerr=[[value - lo], [hi - value]], fmt="o", color=COLORS[i % len(COLORS)], capsize=4)
        ax.annotate(f"{value:.1f}%" if unit == "fraction" else f"{value:.3g}", (value, i), textcoords="offset points",
                    xytext=(0, 7), ha="center", fontsize=8)
    if unit == "fraction":
        ax.set_xlim(-2, 102)
    ax.set_xlabel(suffix)
    ax.grid(axis="x", alpha=0.3)


def _arms_axis(ax: plt.Axes, scores: list[dict]) -> None:
    ax.set_yticks(range(len(scores)), [s["variant"] for s in scores])
    ax.set_ylim(-0.7, len(scores) - 0.3)
    ax.invert_yaxis()


def scores_figure(scores: list[dict]) -> bytes:
    """Pass rate and progress per arm, each a dot with its 95% clustered interval."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 0.55 * len(scores) + 1.4), sharey=True)
    for ax, metric, title in zip(axes, ("pass_rate", "progress"), ("pass rate", "mean progress"), strict=True):
        _dots(ax, scores, metric, "fraction")
        ax.set_title(f"{title} (95% CI)", fontsize=10)
    _arms_axis(axes[0], scores)
    return _png(fig)


def metric_figure(scores: list[dict], name: str, unit: str, higher_is_better: bool) -> bytes:
    """One named metric (``score.<name>``) per arm: its mean with the 95% clustered interval."""
    fig, ax = plt.subplots(figsize=(9, 0.55 * len(scores) + 1.4))
    _dots(ax, scores, name, unit)
    better = "higher" if higher_is_better else "lower"
    ax.set_title(f"{name.replace('_', ' ')} (95% CI; {better} is better)", fontsize=10)
    _arms_axis(ax, scores)
    return _png(fig)


def domain_figure(by_domain: list[dict], key: str = "domain") -> bytes:
    """Pass rate per domain (or split) and arm, with 95% clustered intervals."""
    groups = sorted({r[key] for r in by_domain})
    arms = sorted({r["arm"] for r in by_domain})
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(groups) * max(1, len(arms) / 2) + 1.4))
    step = 0.7 / max(1, len(arms))
    for j, arm in enumerate(arms):
        rows = {r[key]: r for r in by_domain if r["arm"] == arm}
        ys, xs, lo, hi = [], [], [], []
        for i, g in enumerate(groups):
            r = rows.get(g)
            if r is None or not _ok(r["pass_rate"]):
                continue
            ys.append(i - 0.35 + step * (j + 0.5))
            xs.append(100 * r["pass_rate"])
            lo.append(100 * (r["pass_rate"] - r["pass_rate_low"]))
            hi.append(100 * (r["pass_rate_high"] - r["pass_rate"]))
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", capsize=3, color=COLORS[j % len(COLORS)], label=arm)
    ax.set_yticks(range(len(groups)), groups)
    ax.invert_yaxis()
    ax.set_xlim(-2, 102)
    ax.set_xlabel("pass rate, % (95% CI)")
    ax.set_title(f"pass rate by {key}", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return _png(fig)


def forest_figure(comparisons: list[dict], metric: str = "pass rate", unit: str = "fraction") -> bytes:
    """Forest plot of paired differences B − A (points for rates, else the metric's unit) with 95% intervals;
    the overall noise floor shaded."""
    rows = list(comparisons)
    scale, _ = _scale(unit)
    fig, ax = plt.subplots(figsize=(9, 0.36 * len(rows) + 1.5))
    for i, c in enumerate(rows):
        overall = c["scope"] == "all"
        if overall and c.get("noise_floor") is not None:
            f = scale * c["noise_floor"]
            ax.fill_betweenx([i - 0.4, i + 0.4], -f, f, color="#bbbbbb", alpha=0.5, lw=0)
        # the verdict knows the metric's direction: a lower time to pass is the better one
        color = {"better": "#2ca02c", "worse": "#d62728"}.get(c["verdict"].rpartition(" ")[2], "#444444")
        if _ok(c["diff"]):
            err = [[scale * (c["diff"] - c["ci_low"])], [scale * (c["ci_high"] - c["diff"])]]
            ax.errorbar(scale * c["diff"], i, xerr=err,
                        fmt="D" if overall else "o", color=color, capsize=3, ms=7 if overall else 5)
    labels = [f"{c['variant']} − {c['baseline']}" + ("" if c["scope"] == "all" else f"  · {c['scope']}") for c in rows]
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    for tick, c in zip(ax.get_yticklabels(), rows, strict=True):
        tick.set_fontweight("bold" if c["scope"] == "all" else "normal")
    ax.axvline(0, color="black", lw=0.8)
    ax.invert_yaxis()
    what = "points" if unit == "fraction" else unit
    ax.set_xlabel(f"difference in {metric}, {what} (95% CI); grey band: noise floor")
    ax.set_title("paired differences over shared cases", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def histogram_figure(hist: dict, xlabel: str, title: str) -> bytes:
    """Step histograms, one per arm, from SQL-binned counts (see analysis.scores.histogram)."""
    fig, ax = plt.subplots(figsize=(9, 3.2))
    edges = hist["edges"]
    for j, (arm, counts) in enumerate(hist["counts"].items()):
        ax.stairs(counts, edges, label=arm, color=COLORS[j % len(COLORS)], lw=1.5)
    if hist.get("log"):
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("trials")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    if hist["counts"]:
        ax.legend(fontsize=8)
    return _png(fig)
