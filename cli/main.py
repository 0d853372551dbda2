"""The `nightshift` command: run a night, compare runs, write reports, manage the local Prefect server."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from rich.console import Console

PORT_HELP = "port of the local Prefect server (default: the one this project last used, else 4200)"
console = Console(width=None if sys.stdout.isatty() else 120)


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


def _run(args: argparse.Namespace) -> int:
    from nightshift.deployments.server import QUIET_ENV, ensure_server, project_port

    os.environ.update(QUIET_ENV)
    if args.ephemeral:
        _ephemeral_profile()
        # Prefect's 20 s default is too short for a loaded machine; the server then never comes up
        os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
    elif not os.environ.get("PREFECT_API_URL"):  # an explicitly configured server wins
        began = time.monotonic()
        with console.status("starting the local Prefect server (first time only) ..."):
            os.environ["PREFECT_API_URL"] = ensure_server(args.port or project_port())
        took = time.monotonic() - began
        console.print(f"{'Prefect server':<28} {took:7.1f} s   " + ("started" if took > 1 else "running"),
                      highlight=False)
    if os.environ.get("PREFECT_API_URL"):
        console.print(f"Prefect UI: {os.environ['PREFECT_API_URL'].removesuffix('/api')}")
    from nightshift.errors import SuiteError
    from nightshift.experiment.config import ExperimentError, load_experiment

    try:
        exp = load_experiment(Path(args.experiment))  # fail on a bad file before Prefect starts anything
        from nightshift.flows.endpoint_check import check_endpoint

        check_endpoint(exp, Path(args.experiment))  # and on an endpoint that cannot serve it
    except (ExperimentError, SuiteError) as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)  # a YAML error's [...] must survive
        return 2
    from nightshift.analysis.tables import print_comparison
    from nightshift.flows.nightly_eval import nightly_eval
    from nightshift.flows.run_lock import RunLocked
    from nightshift.tasks.disk_space import DiskFull

    started = time.monotonic()
    os.environ["NIGHTSHIFT_OWNS_PROCESS"] = "1"  # this process may bound its exit (flows/publishing.py)
    bar = args.progress == "bar" or (args.progress == "auto" and console.is_terminal)
    try:
        if bar:
            from nightshift.cli.progress import trial_bar

            with trial_bar(Console(force_terminal=True) if not console.is_terminal else console):
                summary = nightly_eval(experiment_file=str(Path(args.experiment).resolve()))
        else:
            summary = nightly_eval(experiment_file=str(Path(args.experiment).resolve()))
    except (RunLocked, DiskFull) as exc:
        console.print(f"{type(exc).__name__}: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        return 3
    console.print(f"\nrun folder: {summary['run_dir']}\nresults:    {summary['parquet']} "
                  f"({summary['trials']} trials)\nmodel calls by trials this invocation: "
                  f"{summary['model_calls_this_invocation']}\nwall time: {time.monotonic() - started:.1f}s\n")
    print_comparison(summary["scores"], summary["differences"], console, summary.get("metrics"))
    console.print(f"\nreport: {summary['report_html']}\nviewer: {summary['view_command']}   (then open "
                  f"{summary['viewer_url']})", markup=False, highlight=False, soft_wrap=True)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from nightshift.analysis import AnalysisError
    from nightshift.analysis.paired import as_dicts
    from nightshift.analysis.tables import noise_lines, power_lines, print_comparison
    from nightshift.experiment.comparability import NotComparable
    from nightshift.results import compare_runs

    try:
        # with several runs, the first is the baseline run: each variant of the others is compared with it there
        result = compare_runs(args.runs, args.baseline, args.allow_diff, args.detect)
    except (AnalysisError, NotComparable, ValueError) as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)
        return 2
    for line in result.info.get("untrusted", []):  # said first: the numbers below may not mean what they seem
        console.print(line, style="bold red", markup=False, highlight=False, soft_wrap=True)
    print_comparison(result.scores, as_dicts([c for c in result.comparisons if c.scope == "all"]), console,
                     result.info["metrics"])
    for line in (result.info.get("infra", []) + noise_lines(result) + power_lines(result)
                 + [f"note: {n}" for n in result.info["notes"]]):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    return 0


def _report(args: argparse.Namespace) -> int:
    from nightshift.analysis import AnalysisError, analyse
    from nightshift.analysis.report import write_report
    from nightshift.experiment.comparability import NotComparable, guard_runs

    try:
        pin_notes = guard_runs([args.vs, args.run], set(args.allow_diff)) if args.vs else []
        result = analyse([args.run], baseline=args.baseline, vs=args.vs, detect=args.detect / 100)
    except (AnalysisError, NotComparable, ValueError) as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)
        return 2
    result.info["notes"] += pin_notes
    run = Path(args.run)
    out = Path(args.out) if args.out else (run if run.is_dir() else run.parent)
    title = f"nightshift report: {', '.join(result.info['runs'])}" + (f" (baseline run {Path(args.vs).name})"
                                                                      if args.vs else "")
    md, page = write_report(result, out, title)
    for c in result.headline():
        console.print(c.line, markup=False, highlight=False, soft_wrap=True)
    console.print(f"\nMarkdown: {md}\nHTML:     {page}")
    return 0


def _start_server(args: argparse.Namespace) -> str | None:
    """The local server `serve` and `server start` ask for; None (after saying why) if it cannot start."""
    from nightshift.deployments.production import ProductionSetupError
    from nightshift.deployments.server import ensure_server, project_port

    kind = "PostgreSQL + Redis" if args.production else "local"
    try:
        with console.status(f"starting the {kind} Prefect server ..."):
            return ensure_server(args.port or project_port(), production=args.production, host=args.host)
    except (ProductionSetupError, RuntimeError) as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)
        return None


def _server(args: argparse.Namespace) -> int:
    from nightshift.deployments.server import recorded_mode, stop_all
    from nightshift.resources import state_dir

    if args.action == "start":
        if not (url := _start_server(args)):
            return 2
        console.print(f"Prefect server: {url.removesuffix('/api')} ({recorded_mode(state_dir())})")
        return 0
    for name, stopped in stop_all().items():
        console.print(f"{name}: " + ("stopped" if stopped else "none started by nightshift is recorded"))
    return 0


def _serve(args: argparse.Namespace) -> int:
    """Server + work pool + deployments from prefect.yaml + a process worker: the nightly schedule is live."""
    from nightshift.deployments.server import deploy, prefect_cli, start_worker, stop

    if not (url := _start_server(args)):
        return 2
    with console.status("creating the work pool and applying prefect.yaml ..."):
        deploy(url)
    stop("worker")
    from nightshift.sandbox.factory import reap_leftovers

    reaped = reap_leftovers()  # a worker that died with kill -9 left sandboxes behind; clear them first
    if any(reaped.values()):
        console.print(f"removed sandboxes left by dead runs: {reaped}")
    worker = start_worker(url)
    # point the user's own `prefect` CLI at this server (their default profile), so the documented
    # `prefect deployment run nightly-eval/nightly` reaches it
    prefect_cli("config", "set", f"PREFECT_API_URL={url}", url=url)
    console.print(f"Prefect UI:  {url.removesuffix('/api')}\nworker pid:  {worker.pid} (log .nightshift/worker.log)"
                  f"\nschedule:    deployment nightly-eval/nightly (prefect.yaml)\nrun now:     "
                  f"prefect deployment run nightly-eval/nightly\n(your prefect profile now has PREFECT_API_URL={url})")
    return 0


def _init(args: argparse.Namespace) -> int:
    from nightshift.cli.starter import InitError, write_project

    folder = Path(args.folder)
    try:
        written = write_project(folder, force=args.force)
    except InitError as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)
        return 2
    for path in written:
        console.print(f"wrote {path}", markup=False, highlight=False)
    where = "" if folder.resolve() == Path.cwd().resolve() else f"cd {folder} && "
    console.print(f"\nnext: {where}nightshift validate-suite suites/starter && nightshift run\n"
                  "      (runs/ gets the run folders, .nightshift/ the local Prefect server and caches)",
                  markup=False, highlight=False)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand and flag (the docs' commands are checked against it: tests/test_docs_commands.py)."""
    parser = argparse.ArgumentParser(prog="nightshift", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    init = sub.add_parser("init", help="write a starter project (experiment, one-case suite, prefect.yaml, "
                                       ".gitignore) into FOLDER")
    init.add_argument("folder", nargs="?", default=".", help="the project folder (default: this one)")
    init.add_argument("--force", action="store_true", help="replace starter files that already exist")
    init.set_defaults(fn=_init)
    run = sub.add_parser("run", help="run one experiment file as a nightly-eval flow run")
    run.add_argument("experiment", nargs="?", default="experiments/default.yaml")
    run.add_argument("--ephemeral", action="store_true",
                     help="use a temporary in-process Prefect server instead of the local one")
    run.add_argument("--port", type=int, help=PORT_HELP)
    run.add_argument("--progress", choices=["auto", "bar", "log"], default="auto",
                     help="a live bar with counts by status and the ETA (auto: on a terminal), or Prefect's "
                          "log lines, two per trial (log)")
    run.set_defaults(fn=_run)
    cmp_ = sub.add_parser("compare", help="scores and paired differences of one or more run folders "
                                          "(with several, the first is the baseline run)")
    cmp_.add_argument("runs", nargs="+")
    cmp_.add_argument("--baseline", help="variant every other variant is compared with")
    cmp_.add_argument("--allow-diff", action="append", default=[], metavar="FIELD",
                      help="accept a difference in this manifest pin (repeatable); the output says so")
    cmp_.add_argument("--detect", type=float, default=3.0, metavar="PTS",
                      help="difference in points to size seeds for (default 3)")
    cmp_.set_defaults(fn=_compare)
    rep = sub.add_parser("report", help="write report.md and a self-contained report.html for a run")
    rep.add_argument("run", help="run folder or its results.parquet")
    rep.add_argument("--vs", metavar="RUN", help="an earlier run: each variant is compared with itself there")
    rep.add_argument("--baseline", help="variant every other variant of RUN is compared with")
    rep.add_argument("--allow-diff", action="append", default=[], metavar="FIELD",
                     help="with --vs: accept a difference in this manifest pin (repeatable); the report says so")
    rep.add_argument("--out", help="folder for the report (default: the run folder)")
    rep.add_argument("--detect", type=float, default=3.0, metavar="PTS",
                     help="difference in points to size seeds for (default 3)")
    rep.set_defaults(fn=_report)
    srv = sub.add_parser("server", help="start the local Prefect server, or stop it, the worker and a production "
                                        "server's PostgreSQL and Redis")
    srv.add_argument("action", choices=["start", "stop"])
    serve = sub.add_parser("serve", help="server + work pool + nightly deployment + worker, in the background")
    for p in (srv, serve):
        p.add_argument("--port", type=int, help=PORT_HELP)
        engine = p.add_mutually_exclusive_group()
        engine.add_argument("--production", dest="production", action="store_const", const=True,
                            help="run the server on this project's own PostgreSQL and Redis (docs/SCALING.md; "
                                 "needs apt-get install postgresql redis-server and pip install "
                                 "'nightshift[production]'); the project remembers it")
        engine.add_argument("--sqlite", dest="production", action="store_const", const=False,
                            help="run the server on SQLite (the default) again")
        p.add_argument("--host", default="127.0.0.1",
                       help="address the Prefect server listens on (0.0.0.0: workers on other machines)")
    srv.set_defaults(fn=_server)
    serve.set_defaults(fn=_serve)
    from nightshift.cli.import_suite import add_import_command
    from nightshift.cli.plugins import add_plugins_command
    from nightshift.cli.validate_suite import add_commands

    add_commands(sub)  # validate-suite
    add_import_command(sub)  # import-suite, over the IMPORTERS registry
    add_plugins_command(sub)  # plugins
    from nightshift.cli.plan import add_plan_command

    add_plan_command(sub)  # plan
    from nightshift.cli.view import add_view_command

    add_view_command(sub)  # view
    from nightshift.sandbox import base_image

    image = sub.add_parser("build-image", help="build the pinned Debian sandbox base image (root): a rootfs for "
                                                "bubblewrap and a docker image; skipped when nothing changed")
    base_image.add_arguments(image)
    image.set_defaults(fn=base_image.run)
    from nightshift.deployments.docker_pool import add_commands as add_docker_pool_commands

    add_docker_pool_commands(sub)  # docker-pool, docker-worker
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in ("validate-suite", "import-suite", "view", "plugins"):
        return args.fn(args, console)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
