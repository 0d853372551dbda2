"""``nightshift compare`` and ``nightshift report``: scores, paired differences and verdicts of finished runs,
refused when their pins differ (experiment/comparability.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from nightshift.cli.output import console
from nightshift.errors import BROKEN_ARM_EXIT_CODE


def add_compare_commands(sub: argparse._SubParsersAction) -> None:
    cmp_ = sub.add_parser("compare", help="scores and paired differences of one or more run folders "
                                          "(with several, the first is the baseline run)")
    cmp_.add_argument("runs", nargs="+")
    cmp_.add_argument("--baseline", help="variant every other variant is compared with")
    cmp_.add_argument("--allow-diff", action="append", default=[], metavar="FIELD",
                      help="accept a difference in this manifest pin (repeatable); the output says so")
    cmp_.add_argument("--detect", type=float, default=3.0, metavar="PTS",
                      help="difference in points to size seeds for (default 3)")
    cmp_.set_defaults(fn=compare_command)
    rep = sub.add_parser("report", help="write report.md and a self-contained report.html for a run")
    rep.add_argument("run", help="run folder or its results.parquet")
    rep.add_argument("--vs", metavar="RUN", help="an earlier run: each variant is compared with itself there")
    rep.add_argument("--baseline", help="variant every other variant of RUN is compared with")
    rep.add_argument("--allow-diff", action="append", default=[], metavar="FIELD",
                     help="with --vs: accept a difference in this manifest pin (repeatable); the report says so")
    rep.add_argument("--out", help="folder for the report (default: the run folder)")
    rep.add_argument("--detect", type=float, default=3.0, metavar="PTS",
                     help="difference in points to size seeds for (default 3)")
    rep.set_defaults(fn=report_command)


def compare_command(args: argparse.Namespace) -> int:
    from nightshift.analysis.paired import as_dicts
    from nightshift.analysis.tables import noise_lines, power_lines, print_comparison
    from nightshift.results import compare_runs

    # with several runs, the first is the baseline run: each variant of the others is compared with it there
    result = compare_runs(args.runs, args.baseline, args.allow_diff, args.detect)
    # said first: the numbers below may not mean what they seem
    for line in result.broken_lines() + result.info.get("untrusted", []):
        console.print(line, style="bold red", markup=False, highlight=False, soft_wrap=True)
    print_comparison(result.scores, as_dicts([c for c in result.comparisons if c.scope == "all"]), console,
                     result.info["metrics"])
    for line in (result.info.get("flags", []) + result.info.get("infra", []) + noise_lines(result) + power_lines(result)
                 + [f"note: {n}" for n in result.info["notes"]]):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return BROKEN_ARM_EXIT_CODE if result.broken else 0


def report_command(args: argparse.Namespace) -> int:
    from nightshift.analysis import analyse
    from nightshift.analysis.report import write_report
    from nightshift.experiment.comparability import guard_runs

    pin_notes = guard_runs([args.vs, args.run], set(args.allow_diff)) if args.vs else []
    result = analyse([args.run], baseline=args.baseline, vs=args.vs, detect=args.detect / 100)
    result.info["notes"] += pin_notes
    run = Path(args.run)
    out = Path(args.out) if args.out else (run if run.is_dir() else run.parent)
    title = f"nightshift report: {', '.join(result.info['runs'])}" + (f" (baseline run {Path(args.vs).name})"
                                                                      if args.vs else "")
    md, page = write_report(result, out, title)
    for line in result.broken_lines():
        console.print(line, style="bold red", markup=False, highlight=False, soft_wrap=True)
    for c in result.headline():
        console.print(c.line, markup=False, highlight=False, soft_wrap=True)
    console.print(f"\nMarkdown: {md}\nHTML:     {page}")
    return BROKEN_ARM_EXIT_CODE if result.broken else 0


