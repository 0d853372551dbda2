"""``nightshift run``: one experiment file as a nightly-eval flow run, on the local Prefect server (started if none
answers) or an ephemeral one; a live bar on a terminal, then the comparison."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from nightshift.cli.output import console
from nightshift.cli.server import PORT_HELP
from nightshift.errors import BROKEN_ARM_EXIT_CODE

if TYPE_CHECKING:
    from nightshift.preflight import CheckedExperiment


def add_run_command(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run one experiment file as a nightly-eval flow run")
    run.add_argument("experiment", nargs="?", default="experiments/default.yaml")
    run.add_argument("--ephemeral", action="store_true",
                     help="use a temporary in-process Prefect server instead of the local one")
    run.add_argument("--port", type=int, help=PORT_HELP)
    run.add_argument("--progress", choices=["auto", "bar", "log"], default="auto",
                     help="a live bar with counts by status and the ETA (auto: on a terminal), or Prefect's "
                          "log lines, two per trial (log)")
    run.set_defaults(fn=run_command)


def _ephemeral_profile() -> None:
    """Run against Prefect's temporary server whatever the user's profiles say: `nightshift serve` writes
    PREFECT_API_URL into the active profile, so a profiles file of our own holds one ephemeral profile.
    (An empty PREFECT_API_URL, tried before, made Prefect's events client refuse to start: every task-run
    event of the night was an ERROR with a traceback.)"""
    from nightshift.resources import state_dir

    profiles = state_dir() / "prefect-ephemeral-profiles.toml"
    profiles.parent.mkdir(parents=True, exist_ok=True)
    profiles.write_text('active = "ephemeral"\n\n[profiles.ephemeral]\nPREFECT_SERVER_ALLOW_EPHEMERAL_MODE = "true"\n')
    os.environ.pop("PREFECT_API_URL", None)
    os.environ.update(PREFECT_PROFILES_PATH=str(profiles), PREFECT_PROFILE="ephemeral")
    # Prefect's 20 s default is too short for a loaded machine; the server then never comes up
    os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    if "prefect.context" in sys.modules:  # Prefect read its profile when imported: have it read this one
        import prefect.context

        prefect.context.refresh_global_settings_context()


def _check_grants(checked: CheckedExperiment) -> None:
    """A sealed case's key and the network rule of protected splits, before Prefect hears of the night (a refusal
    names the cases; the flow checks again for a night started from a deployment)."""
    from nightshift.flows.protected_night import record_refusal
    from nightshift.flows.trial_context import load_run_cases
    from nightshift.splits import SplitAccessError

    try:
        load_run_cases(checked)
    except SplitAccessError as exc:
        record_refusal(checked.exp, exc)
        raise


def run_command(args: argparse.Namespace) -> int:
    return run_experiment(args)[0]


def run_experiment(args: argparse.Namespace) -> tuple[int, dict]:
    """``run``'s whole body: the exit status and the night's summary (``replay`` reads the run folder from it)."""
    from nightshift.deployments.server import (
        QUIET_ENV,
        ensure_server,
        point_prefect_at,
        present_own_credential,
        project_port,
    )

    os.environ.update(QUIET_ENV)
    if args.ephemeral:
        _ephemeral_profile()
    elif not os.environ.get("PREFECT_API_URL"):  # an explicitly configured server wins
        began = time.monotonic()
        with console.status("starting the local Prefect server (first time only) ..."):
            point_prefect_at(ensure_server(args.port or project_port()))
        took = time.monotonic() - began
        console.print(f"{'Prefect server':<28} {took:7.1f} s   " + ("started" if took > 1 else "running"),
                      highlight=False)
    else:  # the project's own server named by hand still gets the project's credential
        present_own_credential(os.environ["PREFECT_API_URL"])
    if os.environ.get("PREFECT_API_URL"):
        console.print(f"Prefect UI: {os.environ['PREFECT_API_URL'].removesuffix('/api')}")
    from nightshift.flows.endpoint_check import check_endpoint
    from nightshift.preflight import check_experiment

    checked = check_experiment(Path(args.experiment))  # fail on a bad file before Prefect starts anything
    _check_grants(checked)
    check_endpoint(checked.exp, checked.file)  # and on an endpoint that cannot serve it
    from nightshift.analysis.tables import print_comparison
    from nightshift.flows.nightly_eval import nightly_eval

    started = time.monotonic()
    os.environ["NIGHTSHIFT_OWNS_PROCESS"] = "1"  # this process may bound its exit (flows/publishing.py)
    bar = args.progress == "bar" or (args.progress == "auto" and console.is_terminal)
    if bar:
        from nightshift.cli.progress import trial_bar

        with trial_bar(Console(force_terminal=True) if not console.is_terminal else console):
            summary = nightly_eval(experiment_file=str(Path(args.experiment).resolve()))
    else:
        summary = nightly_eval(experiment_file=str(Path(args.experiment).resolve()))
    console.print(f"\nrun folder: {summary['run_dir']}\nresults:    {summary['parquet']} "
                  f"({summary['trials']} trials)\nmodel calls by trials this invocation: "
                  f"{summary['model_calls_this_invocation']}\nwall time: {time.monotonic() - started:.1f}s\n")
    for line in summary.get("reused", []):
        console.print(line, markup=False, highlight=False)
    print_comparison(summary["scores"], summary["differences"], console, summary.get("metrics"))
    for line in summary.get("flags", []):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    console.print(f"\nreport: {summary['report_html']}\nviewer: {summary['view_command']}   (then open "
                  f"{summary['viewer_url']})", markup=False, highlight=False, soft_wrap=True)
    broken = summary.get("broken_lines", [])
    if broken:  # last, where the eye lands: a crash must not read as a low score
        console.print()
    for line in broken:
        console.print(line, style="bold red", markup=False, highlight=False, soft_wrap=True)
    return BROKEN_ARM_EXIT_CODE if broken else 0, summary


