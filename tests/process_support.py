"""Background processes a test (or a bench) starts in their own process group, and stops with everything they
started (a Prefect worker's flow-run children, a docker worker's log streams)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def start_group(args: list[str], env: dict, cwd: Path, log: Path) -> subprocess.Popen:
    return subprocess.Popen(args, env=env, cwd=cwd, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                            start_new_session=True)


def stop_group(proc: subprocess.Popen, wait_s: float = 30) -> None:
    """SIGTERM the whole group, SIGKILL it after ``wait_s``."""
    if proc.poll() is None:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


def wait_for_workers(pool: str, names: set[str], procs: list[subprocess.Popen], timeout_s: float = 120) -> None:
    """Until every named worker has sent its heartbeat to ``pool``: a night launched before would let the first
    worker up take every shard (a worker with --limit 1 takes the next shard as soon as its first ends)."""
    import time

    from prefect.client.orchestration import get_client

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if dead := [p.args for p in procs if p.poll() is not None]:
            raise RuntimeError(f"a worker exited before it came up: {dead}")
        with get_client(sync_client=True) as client:
            online = {w.name for w in client.read_workers_for_work_pool(pool)}
        if names <= online:
            return
        time.sleep(0.5)
    raise RuntimeError(f"workers {sorted(names - online)} did not reach work pool {pool} in {timeout_s:.0f} s")
