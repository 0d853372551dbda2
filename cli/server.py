"""``nightshift server start|stop`` and ``nightshift serve``: the local Prefect server (SQLite, or the project's own
PostgreSQL + Redis), its work pool, prefect.yaml's deployments and a worker (deployments/server.py does the work)."""

from __future__ import annotations

import argparse

from nightshift.cli.output import console

PORT_HELP = "port of the local Prefect server (default: the one this project last used, else 4200)"


def add_server_commands(sub: argparse._SubParsersAction) -> None:
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
                       help="address the Prefect server listens on (default 127.0.0.1; 0.0.0.0: workers on other "
                            "machines, which need its credential; warned: the API is plain HTTP)")
    srv.set_defaults(fn=server_command)
    serve.set_defaults(fn=serve_command)


def _start_server(args: argparse.Namespace) -> str:
    """The local server `serve` and `server start` ask for (OrchestrationError, saying why, if it cannot start)."""
    from nightshift.deployments.auth import network_warning
    from nightshift.deployments.server import ensure_server, project_port

    port = args.port or project_port()
    if warning := network_warning(args.host, port):  # auth is always on; the warning is about clear-text HTTP
        console.print(f"[bold red]WARNING:[/] {warning}")
    kind = "PostgreSQL + Redis" if args.production else "local"
    with console.status(f"starting the {kind} Prefect server ..."):
        return ensure_server(port, production=args.production, host=args.host)


def server_command(args: argparse.Namespace) -> int:
    from nightshift.deployments.auth import credential_file
    from nightshift.deployments.server import recorded_mode, stop_all
    from nightshift.resources import state_dir

    if args.action == "start":
        url = _start_server(args)
        console.print(f"Prefect server: {url.removesuffix('/api')} ({recorded_mode(state_dir())})\n"
                      f"credential:     {credential_file(state_dir())} (PREFECT_API_AUTH_STRING for its clients)")
        return 0
    for name, stopped in stop_all().items():
        console.print(f"{name}: " + ("stopped" if stopped else "none started by nightshift is recorded"))
    return 0


def serve_command(args: argparse.Namespace) -> int:
    """Server + work pool + deployments from prefect.yaml + a process worker: the nightly schedule is live."""
    from nightshift.deployments.auth import credential_file
    from nightshift.deployments.server import deploy, point_profile_at, start_worker, stop
    from nightshift.resources import state_dir

    url = _start_server(args)
    with console.status("creating the work pool and applying prefect.yaml ..."):
        deploy(url)
    stop("worker")
    from nightshift.sandbox.factory import reap_leftovers

    reaped = reap_leftovers()  # a worker that died with kill -9 left sandboxes behind; clear them first
    if any(reaped.values()):
        console.print(f"removed sandboxes left by dead runs: {reaped}")
    worker = start_worker(url)
    profile = point_profile_at(url)
    console.print(f"Prefect UI:  {url.removesuffix('/api')} (it asks for the credential: "
                  f"{credential_file(state_dir())})\nworker pid:  {worker.pid} (log .nightshift/worker.log)"
                  f"\nschedule:    deployment nightly-eval/nightly (prefect.yaml)\nrun now:     "
                  f"prefect deployment run nightly-eval/nightly\n(your prefect profile, {profile} (now mode 600), "
                  f"has PREFECT_API_URL={url} and the credential)")
    return 0


