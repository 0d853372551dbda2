"""A burst of task runs at a Prefect server, as a resumed night sends (its finished trials come back from the cache
at once): what the server records of it, what its log says it dropped, and what a restart recovers.

    .venv/bin/python -m bench.server_burst                      # SQLite, 6,000 task runs, 32 threads
    .venv/bin/python -m bench.server_burst --production         # PostgreSQL + Redis
    .venv/bin/python -m bench.server_burst --recorder-batch 1   # Prefect's default task-run recorder batch

Every task run sends three events (Pending, Running, Completed); the server's task-run recorder makes the
task-run rows from them and its event persister stores them, both consuming the server's event stream behind the
flow. The server is stopped once they have caught up (or after --catch-up-s), started again on the same database
and given the same time: with Redis the stream outlives the server, with Prefect's in-memory messaging it does not.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from prefect import flow, task
from prefect.futures import wait
from prefect.settings import PREFECT_API_URL, temporary_settings
from prefect.task_runners import ThreadPoolTaskRunner

from bench.night_bench import _free_port, quiet_console
from bench.server_health import log_findings, settled_counts
from bench.smoke import add_smoke, apply_smoke, judged

RECORDER = ("PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_BATCH_SIZE",
            "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_READ_BATCH_SIZE")


@task(name="tick")
def tick(i: int) -> int:
    return i


@flow(name="server-burst")
def burst(tasks: int) -> None:
    wait(tick.map(range(tasks)))


def main(argv: list[str] | None = None) -> int:
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    from nightshift.deployments.server import ensure_server, stop, stop_all

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", type=int, default=6000)
    p.add_argument("--threads", type=int, default=32)
    p.add_argument("--production", action="store_true", help="PostgreSQL + Redis instead of SQLite")
    p.add_argument("--recorder-batch", type=int, help="the task-run recorder's read and write batch "
                   "(default: what nightshift sets; Prefect's own default is 1)")
    p.add_argument("--catch-up-s", type=float, default=180, help="longest wait for the server to catch up")
    p.add_argument("--json", type=Path)
    add_smoke(p, tasks=60, threads=4, catch_up_s=60.0)
    args = apply_smoke(p.parse_args(argv))
    if args.recorder_batch:
        os.environ.update({name: str(args.recorder_batch) for name in RECORDER})
    mode = "production" if args.production else "sqlite"
    work = Path(tempfile.mkdtemp(prefix="nightshift-server-burst-"))
    work.chmod(0o755)  # the postgres system user must reach its cluster folder inside
    port, home, out = _free_port(), work / "prefect", {"mode": mode, "args": {k: str(v) for k, v in vars(args).items()}}
    quiet_console()
    try:
        url = ensure_server(port=port, home=home, state_dir=work, production=args.production)
        with temporary_settings(updates={PREFECT_API_URL: url}):
            started = time.monotonic()
            burst.with_options(task_runner=ThreadPoolTaskRunner(max_workers=args.threads))(args.tasks)
            out["flow_s"] = time.monotonic() - started
            EventsWorker.drain_all(timeout=120)  # every event has left the client
            APILogWorker.drain_all(timeout=30)
            out["sent_s"] = time.monotonic() - started
        out["before_restart"] = settled_counts(work, home, mode, timeout_s=args.catch_up_s)
        stop("prefect-server", work, wait_s=30)
        ensure_server(port=port, home=home, state_dir=work)  # the same database (and Redis), as recorded
        out["after_restart"] = settled_counts(work, home, mode, timeout_s=args.catch_up_s)
        out["log"] = log_findings(work / "prefect-server.log")  # both lives of the server
    finally:
        stop_all(work)
        shutil.rmtree(work, ignore_errors=True)
    b, a = out["before_restart"], out["after_restart"]
    print(f"server burst ({mode}, recorder batch {os.environ.get(RECORDER[0], 'default')}): {args.tasks:,} task runs "
          f"on {args.threads} threads in {out['flow_s']:.1f} s (events sent by {out['sent_s']:.1f} s)\n"
          f"  recorded before the restart: {b['task_runs']:,} task runs, {b['task_run_events']:,} task-run events "
          f"(caught up {b['catch_up_s']:.0f} s after the flow)\n"
          f"  after the restart:           {a['task_runs']:,} task runs, {a['task_run_events']:,} task-run events\n"
          f"  server log: {out['log']['dropped_lines']} lines about dropped messages, "
          f"{out['log']['unavailable_lines']} with 503" + (f"; first: {out['log']['dropped_example']}"
                                                          if out["log"]["dropped_example"] else ""))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return judged(args, 0 if a["task_runs"] == args.tasks else 1)


if __name__ == "__main__":
    raise SystemExit(main())
