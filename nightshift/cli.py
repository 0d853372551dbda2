"""The `nightshift` command: run a night, compare runs, manage the local Prefect server."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from rich.console import Console

console = Console(width=None if sys.stdout.isatty() else 120)


def _run(args: argparse.Namespace) -> int:
    from deployments.server import QUIET_ENV, ensure_server

    os.environ.update(QUIET_ENV)
    if not args.ephemeral:
        with console.status("starting the local Prefect server (first time only) ..."):
            os.environ["PREFECT_API_URL"] = ensure_server()
        console.print(f"Prefect UI: {os.environ['PREFECT_API_URL'].removesuffix('/api')}")
    from experiment.config import ExperimentError, load_experiment
    from suites.loader import SuiteError

    try:
        load_experiment(Path(args.experiment))  # fail on a bad file before Prefect starts anything
    except (ExperimentError, SuiteError) as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    from analysis.tables import print_comparison
    from flows.nightly_eval import nightly_eval

    started = time.monotonic()
    summary = nightly_eval(experiment_file=str(Path(args.experiment).resolve()))
    console.print(f"\nrun folder: {summary['run_dir']}\nresults:    {summary['parquet']} "
                  f"({summary['trials']} trials)\nmodel calls by trials this invocation: "
                  f"{summary['model_calls_this_invocation']}\nwall time: {time.monotonic() - started:.1f}s\n")
    print_comparison(summary["scores"], summary["differences"], console)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from analysis import paired_differences, variant_scores
    from analysis.tables import print_comparison

    files = [Path(p) / "results.parquet" if Path(p).is_dir() else Path(p) for p in args.runs]
    for f in files:
        if not f.is_file():
            console.print(f"[red]{f}: no results.parquet here; pass a run folder or its results.parquet[/red]")
            return 2
    print_comparison(variant_scores(files), paired_differences(files, args.baseline), console)
    return 0


def _server(args: argparse.Namespace) -> int:
    from deployments.server import ensure_server, stop_server

    if args.action == "start":
        console.print(f"Prefect server: {ensure_server().removesuffix('/api')}")
    else:
        console.print("stopped" if stop_server() else "no server started by nightshift is recorded")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nightshift", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run one experiment file as a nightly-eval flow run")
    run.add_argument("experiment", nargs="?", default="experiments/default.yaml")
    run.add_argument("--ephemeral", action="store_true",
                     help="use a temporary in-process Prefect server instead of the local one")
    run.set_defaults(fn=_run)
    cmp_ = sub.add_parser("compare", help="scores and paired differences of one or more run folders")
    cmp_.add_argument("runs", nargs="+")
    cmp_.add_argument("--baseline", help="variant every other variant is compared with")
    cmp_.set_defaults(fn=_compare)
    srv = sub.add_parser("server", help="start or stop the local Prefect server")
    srv.add_argument("action", choices=["start", "stop"])
    srv.set_defaults(fn=_server)
    args = parser.parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
