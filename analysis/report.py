"""The morning report: one list of blocks rendered twice, as Markdown and as self-contained HTML.

The HTML embeds every plot as a base64 PNG, so the file opens anywhere with nothing beside it; the
Markdown links the same PNGs, written next to it. Numbers come from ``analysis.analyse``.
"""

from __future__ import annotations

import base64
import html
import re
from dataclasses import asdict
from pathlib import Path

from nightshift.analysis import plots
from nightshift.analysis.case_links import case_blocks
from nightshift.analysis.scores import STATUSES, histogram
from nightshift.analysis.source import connect
from nightshift.analysis.summary import Analysis
from nightshift.analysis.tables import (
    METRIC_HEADERS,
    SCORE_HEADERS,
    diff_headers,
    diff_rows,
    drop_empty,
    markdown_table,
    metric_label,
    metric_rows,
    noise_lines,
    pct,
    power_lines,
    score_rows,
)
from nightshift.analysis.timing import timing_blocks
from nightshift.atomic_files import atomic_write_bytes, atomic_write_text

# ("h2", text) | ("p", text) | ("pre", lines) | ("table", headers, rows[, links]) | ("img", name, title, png);
# a table's optional links are one URL per row, put on its first cell
Block = tuple


def blocks(analysis: Analysis, title: str, detail: bool = True) -> list[Block]:
    """The report's content in order; ``detail=False`` is the short form for a Prefect artifact."""
    comps = [asdict(c) for c in analysis.comparisons]
    headline = [asdict(c) for c in analysis.comparisons if c.scope == "all"]
    out: list[Block] = [("h1", title)]
    if analysis.broken:  # first: a crashing harness must not read as a low score
        out += [("h2", "Broken arms: not a result"), ("pre", analysis.broken_lines())]
    for line in analysis.info.get("untrusted", []):  # infra errors over the experiment's threshold
        out.append(("p", line))
    verdicts = [c["line"] for c in headline if c["metric"] == "pass_rate"]
    progress = [c["line"] for c in headline if c["metric"] == "progress"]
    out += [("h2", "Verdicts (pass rate)"), ("pre", verdicts or ["one arm only: nothing to compare"])]
    if progress:
        out += [("h2", "Verdicts (mean progress)"), ("pre", progress)]
    named = analysis.info.get("metrics", [])
    for m in named:
        lines = [c["line"] for c in headline if c["metric"] == m["name"]]
        if lines:
            better = "higher" if m["higher_is_better"] else "lower"
            out += [("h2", f"Verdicts ({metric_label(m['name'], m['unit'])}; {better} is better)"), ("pre", lines)]
    out += [("h2", "Scores"), ("table", *drop_empty(SCORE_HEADERS, score_rows(analysis.scores)))]
    if named:
        out += [("h2", "Named metrics"), ("p", "Each metric's mean per arm with its 95% interval, clustered by case; "
                 "trials without a value (a time to pass of a trial that never passed, say) are left out of that "
                 "metric only."), ("table", METRIC_HEADERS, metric_rows(analysis.scores, named))]
    if detail:
        out.append(("img", "scores", "Pass rate and progress per arm", plots.scores_figure(analysis.scores)))
        for m in named:
            out.append(("img", f"metric-{m['name']}", f"{metric_label(m['name'], m['unit'])} per arm",
                        plots.metric_figure(analysis.scores, m["name"], m["unit"], m["higher_is_better"])))
    status_rows = [[s["arm"], str(s["total"]), *(str(s[k]) for k in STATUSES),
                    pct(s["infra_error"] / s["total"] if s["total"] else 0)] for s in analysis.statuses]
    out += [("h2", "How trials ended"), ("p", "Infra errors are not the agent's doing: they are excluded from every "
             "denominator above and counted here."),
            ("table", ("arm", "trials", *STATUSES, "infra share"), status_rows)]
    if analysis.info.get("flags"):
        out += [("h2", "Flagged trials"), ("p", "What the scanners saw in how trials won (docs/SCANNERS.md): per arm "
                 "the trials flagged cheat, suspect or info, and for each compared pair how much of the pass-rate "
                 "difference is flagged passes, with the difference recomputed counting cheat trials as failed."),
                ("pre", analysis.info["flags"])]
    if analysis.info.get("infra"):
        out += [("h2", "Infra errors and the verdicts"), ("pre", analysis.info["infra"])]
    if analysis.info.get("reused"):
        out += [("h2", "Reused trials"), ("p", "Rows answered from the trial cache: the same trial (case, variant, "
                 "seed and pins) finished in an earlier run, so it was not run again. They count like any other row."),
                ("pre", analysis.info["reused"])]
    out += [("h2", "Comparisons"), ("table", diff_headers(headline), diff_rows(headline))]
    if detail and comps:
        out.append(("img", "forest", "Paired differences (pass rate)",
                    plots.forest_figure([c for c in comps if c["metric"] == "pass_rate"])))
        for m in named:
            rows = [c for c in comps if c["metric"] == m["name"]]
            if rows:
                out.append(("img", f"forest-{m['name']}", f"Paired differences ({metric_label(m['name'], m['unit'])})",
                            plots.forest_figure(rows, m["name"].replace("_", " "), m["unit"])))
    breakdown = [c for c in comps if c["scope"] != "all"]
    if detail and breakdown:
        out += [("h2", "Comparisons by domain and split"),
                ("p", "For looking, not for deciding: many tests on few cases each, with no correction for multiple "
                      "comparisons, so about one in twenty of these verdicts can be wrong by chance."),
                ("table", diff_headers(breakdown), diff_rows(breakdown))]
    out += [("h2", "Noise floor"), ("pre", noise_lines(analysis)), ("h2", "Power"),
            ("pre", power_lines(analysis) or ["one arm only: nothing to compare"])]
    if not detail:
        return out

    out += case_blocks(analysis)
    for key, rows in (("domain", analysis.by_domain), ("split", analysis.by_split)):
        table_rows = [[f"{r['arm']} · {r[key]}", *score_rows([r])[0][1:]] for r in rows]
        out += [("h2", f"By {key}"), ("table", *drop_empty((f"arm · {key}", *SCORE_HEADERS[1:]), table_rows))]
        if rows:
            out.append(("img", key, f"Pass rate by {key}", plots.domain_figure(rows, key)))
    info = analysis.info
    runs = ", ".join(r if label == r else f"{r} (@{label})" for r, label in info["run_labels"].items())
    out += [("h2", "Sources"), ("pre", [f"files: {', '.join(info['files'])}", f"runs: {runs}",
                                        f"progress: {info['progress']}",
                                        f"cost: {info['cost'] or 'no cost column in these rows'}",
                                        f"hidden tests: {'yes' if info['hidden'] else 'no hidden-test columns'}",
                                        *(f"note: {n}" for n in info["notes"]),
                                        "methods: docs/ANALYSIS.md"])]
    return out


def distribution_blocks(files: list[str]) -> list[Block]:
    """Histograms of trial duration and tokens per arm (binned in DuckDB)."""
    con, _ = connect(files)
    return [("h2", "Distributions"),
            ("img", "duration", "Trial duration", plots.histogram_figure(histogram(con, "duration_s"), "seconds",
                                                                         "trial duration (infra errors excluded)")),
            ("img", "tokens", "Tokens per trial", plots.histogram_figure(histogram(con, "tokens", log=True),
                                                                        "input + output tokens", "tokens per trial"))]


def to_markdown(items: list[Block], image_dir: str | None = None) -> str:
    """Markdown; images become links to ``image_dir/NAME.png`` (or are left out when it is None)."""
    parts = []
    for b in items:
        if b[0] in ("h1", "h2"):
            parts.append(f"{'#' if b[0] == 'h1' else '##'} {b[1]}\n")
        elif b[0] == "p":
            parts.append(b[1] + "\n")
        elif b[0] == "pre":
            parts.append("".join(f"    {line}\n" for line in b[1]))
        elif b[0] == "table":
            rows = b[2] if len(b) < 4 else [[f"[{r[0]}]({url})", *r[1:]] for r, url in zip(b[2], b[3], strict=True)]
            parts.append(markdown_table(b[1], rows))
        elif b[0] == "img" and image_dir is not None:
            parts.append(f"![{b[2]}]({image_dir}/{b[1]}.png)\n")
    return "\n".join(parts)


NUMERIC = re.compile(r"^[-+±$\[\]\d.,% –<]*$")
STYLE = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:13px;margin:.5em 0}td,th{border:1px solid #ccc;padding:3px 7px;
text-align:right}td:first-child,th:first-child{text-align:left}th{background:#f3f3f3}
.l{text-align:left}td{white-space:nowrap}pre{background:#f6f8fa;padding:.7em;font-size:14px;white-space:pre-wrap}img{max-width:100%}h2{margin-top:1.6em}"""


def to_html(items: list[Block]) -> str:
    """A self-contained HTML page: styles inline, plots as base64 PNG data URIs."""
    e = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{e(items[0][1])}</title>"
             f"<style>{STYLE}</style></head><body>"]
    for b in items:
        if b[0] in ("h1", "h2"):
            parts.append(f"<{b[0]}>{e(b[1])}</{b[0]}>")
        elif b[0] == "p":
            parts.append(f"<p>{e(b[1])}</p>")
        elif b[0] == "pre":
            parts.append(f"<pre>{e(chr(10).join(b[1]))}</pre>")
        elif b[0] == "table":
            left = [not all(NUMERIC.match(row[i]) for row in b[2]) for i in range(len(b[1]))]
            cls = ["class='l'" if x else "" for x in left]
            head = "".join(f"<th {c}>{e(h.strip())}</th>" for c, h in zip(cls, b[1], strict=True))
            links = b[3] if len(b) > 3 else [None] * len(b[2])
            body = "".join("<tr>" + "".join(f"<td {c}>{_cell(v, url if i == 0 else None)}</td>"
                                            for i, (c, v) in enumerate(zip(cls, row, strict=True))) + "</tr>"
                           for row, url in zip(b[2], links, strict=True))
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif b[0] == "img":
            data = base64.b64encode(b[3]).decode()
            parts.append(f"<figure><img alt='{e(b[2])}' src='data:image/png;base64,{data}'></figure>")
    return "\n".join(parts) + "</body></html>\n"


def _cell(value: str, url: str | None) -> str:
    text = html.escape(value)
    return f"<a href='{html.escape(url, quote=True)}'>{text}</a>" if url else text


def write_report(analysis: Analysis, out_dir: Path, title: str) -> tuple[Path, Path]:
    """Write ``report.md`` (+ ``report-plots/*.png``) and self-contained ``report.html`` into ``out_dir``."""
    files = analysis.info["files"]
    items = blocks(analysis, title) + timing_blocks(files) + distribution_blocks(files)
    out_dir.mkdir(parents=True, exist_ok=True)
    plot_dir = out_dir / "report-plots"
    plot_dir.mkdir(exist_ok=True)
    for b in items:
        if b[0] == "img":
            atomic_write_bytes(plot_dir / f"{b[1]}.png", b[3])
    md, page = out_dir / "report.md", out_dir / "report.html"
    atomic_write_text(md, to_markdown(items, plot_dir.name))
    atomic_write_text(page, to_html(items))
    return md, page
