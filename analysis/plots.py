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


def scores_figure(scores: list[dict]) -> bytes:
    """Pass rate and progress per arm, each a dot with its 95% clustered interval."""
    fig, axes = plt.subplots(1, 2, figsize=(9, 0.55 * len(scores) + 1.4), sharey=True)
    for ax, metric, title in zip(axes, ("pass_rate", "progress"), ("pass rate", "mean progress"), strict=True):
        for i, s in enumerate(scores):
            if not _ok(s.get(metric)):
                continue
            lo, hi = s[f"{metric}_low"], s[f"{metric}_high"]
            ax.errorbar(100 * s[metric], i, xerr=[[100 * (s[metric] - lo)], [100 * (hi - s[metric])]], fmt="o",
                        color=COLORS[i % len(COLORS)], capsize=4)
            ax.annotate(f"{100 * s[metric]:.1f}%", (100 * s[metric], i), textcoords="offset points", xytext=(0, 7),
                        ha="center", fontsize=8)
        ax.set_xlim(-2, 102)
        ax.set_title(f"{title} (95% CI)", fontsize=10)
        ax.set_xlabel("%")
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(range(len(scores)), [s["variant"] for s in scores])
    axes[0].set_ylim(-0.7, len(scores) - 0.3)
    axes[0].invert_yaxis()
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


def forest_figure(comparisons: list[dict]) -> bytes:
    """Forest plot of paired differences B − A in points with 95% intervals; the overall noise floor shaded."""
    rows = list(comparisons)
    fig, ax = plt.subplots(figsize=(9, 0.36 * len(rows) + 1.5))
    for i, c in enumerate(rows):
        overall = c["scope"] == "all"
        if overall and c.get("noise_floor") is not None:
            f = 100 * c["noise_floor"]
            ax.fill_betweenx([i - 0.4, i + 0.4], -f, f, color="#bbbbbb", alpha=0.5, lw=0)
        color = "#444444" if c["verdict"] == "within noise" else ("#2ca02c" if c["diff"] > 0 else "#d62728")
        if _ok(c["diff"]):
            err = [[100 * (c["diff"] - c["ci_low"])], [100 * (c["ci_high"] - c["diff"])]]
            ax.errorbar(100 * c["diff"], i, xerr=err,
                        fmt="D" if overall else "o", color=color, capsize=3, ms=7 if overall else 5)
    labels = [f"{c['variant']} − {c['baseline']}" + ("" if c["scope"] == "all" else f"  · {c['scope']}") for c in rows]
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    for tick, c in zip(ax.get_yticklabels(), rows, strict=True):
        tick.set_fontweight("bold" if c["scope"] == "all" else "normal")
    ax.axvline(0, color="black", lw=0.8)
    ax.invert_yaxis()
    ax.set_xlabel("difference in pass rate, points (95% bootstrap CI); grey band: noise floor")
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
