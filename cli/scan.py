"""`nightshift scan RUN`: re-scan a finished run with today's scanners (tasks/rescan.py); no trial runs again.

The experiment file gives the suites (for each case's tests and graded files) and the scanners (its
``scanners:``, every built-in when unset); the run's own flag policy (its manifest) decides any status change.
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from nightshift.cli.output import console

DEFAULT_EXPERIMENT = "experiments/default.yaml"


def add_scan_command(sub: argparse._SubParsersAction) -> None:
    scan = sub.add_parser("scan", help="re-scan a finished run's trials with today's scanners (no trial runs "
                                       "again): rewrites their flags and results.parquet, says what changed")
    scan.add_argument("run", help="the run folder (runs/<experiment>-<hash>)")
    scan.add_argument("--experiment", default=DEFAULT_EXPERIMENT,
                      help=f"the experiment file naming the suites and scanners (default {DEFAULT_EXPERIMENT})")
    scan.set_defaults(fn=scan_command)


def scan_command(args: argparse.Namespace) -> int:
    from nightshift.experiment.manifest import RunManifest
    from nightshift.flows.endpoint import model_endpoint
    from nightshift.flows.run_lock import acquire
    from nightshift.flows.trial_context import open_gateway
    from nightshift.graders.scanning import ScannerSet
    from nightshift.preflight import check_experiment
    from nightshift.suites import load_cases
    from nightshift.tasks.rescan import RescanError, rescan_run

    run_dir = Path(args.run).resolve()
    if run_dir.name == "results.parquet":
        run_dir = run_dir.parent
    if not (run_dir / "manifest.json").is_file():
        raise RescanError(f"{args.run}: not a run folder (no manifest.json); pass the folder `nightshift run` "
                          f"printed, e.g. runs/default-1a2b3c4d5e6f")
    checked = check_experiment(Path(args.experiment))
    cases = [c for d in checked.suite_dirs for c in load_cases(d)]
    pinned = RunManifest.read(run_dir / "manifest.json").cases
    for case in cases:
        if case.id in pinned and pinned[case.id] != case.content_hash:
            console.print(f"note: case {case.id} changed since the run; scanned against its current files",
                          markup=False, highlight=False)
    scanners = ScannerSet.build(checked.exp.scanners)
    lock = acquire(run_dir)  # one writer per run: never while its night (or another scan) is writing it
    try:
        with contextlib.ExitStack() as stack:
            gateway = None
            if scanners.needs_model:  # the judge asks the experiment's endpoint, under its quota, as a night does
                endpoint = stack.enter_context(model_endpoint(checked.exp, checked.suite_dirs,
                                                              checked.exp.output_dir / ".simulator"))
                gateway = open_gateway(checked.exp, endpoint.base_url, endpoint.api_key, concurrency=1)
            report = rescan_run(run_dir, [c for c in cases if c.id in pinned], scanners, gateway)
    finally:
        lock.release()
    for line in report.lines():
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    console.print(f"rewrote {run_dir / 'results.parquet'}; run `nightshift report {args.run}` to rewrite its report",
                  markup=False, highlight=False, soft_wrap=True)
    return 0
