"""Prefect's side of the gateway bench: a throwaway ``prefect server start`` and what its limits cost.

``temporary_server`` runs a real server (SQLite, its own PREFECT_HOME, a free port, filesystem lease
storage as in deployments/server.py) and points this process at it. ``measure_slot_costs`` times the
optional per-trial API slot (gateway/slots.py): acquiring and releasing an uncontended slot, 128 trials
taking slots at once, and slots changing hands under a low limit (the polling DESIGN.md warns about).
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from nightshift.deployments.server import point_prefect_at

QUIET = {"DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_LOGGING_LEVEL": "ERROR",
         "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
         "PREFECT_SERVER_CONCURRENCY_LEASE_STORAGE": "prefect.server.concurrency.lease_storage.filesystem"}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def temporary_server(timeout_s: float = 180) -> Iterator[str]:
    """Start ``prefect server start`` for the block and set PREFECT_API_URL here; yields the API URL."""
    with tempfile.TemporaryDirectory(prefix="nightshift-bench-prefect-") as home:
        port = _free_port()
        api = f"http://127.0.0.1:{port}/api"
        env = {**os.environ, **QUIET, "PREFECT_HOME": home, "PREFECT_API_URL": api}
        log = (Path(home) / "server.log").open("wb")
        proc = subprocess.Popen([sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
                                 "--port", str(port), "--no-scheduler", "--no-late-runs", "--no-ui"],
                                env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + timeout_s
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"prefect server exited: {(Path(home) / 'server.log').read_text()[-2000:]}")
                try:
                    if httpx.get(f"{api}/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"prefect server not up after {timeout_s:.0f} s")
                time.sleep(0.5)
            os.environ.update(QUIET)
            point_prefect_at(api)  # Prefect read its settings at import: the variable alone is not seen
            yield api
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()


def set_limit(name: str, limit: int, slot_decay_per_second: float = 0.0) -> None:
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        client.upsert_global_concurrency_limit_by_name(name, limit, slot_decay_per_second or None)


def _holders(name: str, count: int, hold_s: float) -> tuple[float, list[float]]:
    """``count`` threads each take one slot of ``name`` and hold it ``hold_s``; (wall s, acquire waits)."""
    from prefect.concurrency.sync import concurrency

    waits: list[float] = []
    lock = threading.Lock()

    def holder() -> None:
        t0 = time.monotonic()
        with concurrency(name, occupy=1, strict=True, lease_duration=600):
            with lock:
                waits.append(time.monotonic() - t0)
            time.sleep(hold_s)

    threads = [threading.Thread(target=holder) for _ in range(count)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.monotonic() - start, waits


def measure_slot_costs() -> dict:
    """The three measurements of the module docstring, in seconds."""
    from prefect.concurrency.sync import concurrency

    set_limit("bench-model-api", 256)
    enter, whole = [], []
    for _ in range(30):
        t0 = time.monotonic()
        with concurrency("bench-model-api", occupy=1, strict=True, lease_duration=600):
            enter.append(time.monotonic() - t0)
        whole.append(time.monotonic() - t0)
    burst_wall, burst_waits = _holders("bench-model-api", 128, 2.0)
    set_limit("bench-model-api-low", 16)
    low_wall, _ = _holders("bench-model-api-low", 64, 1.0)

    def q(values: list[float], p: float) -> float:
        return round(statistics.quantiles(values, n=100)[int(p) - 1], 3)

    return {"uncontended_acquire_p50_s": q(enter, 50), "uncontended_acquire_p95_s": q(enter, 95),
            "uncontended_acquire_release_p50_s": q(whole, 50),
            "burst128_max_wait_s": round(max(burst_waits), 3), "burst128_mean_wait_s":
            round(statistics.mean(burst_waits), 3), "burst128_wall_s": round(burst_wall, 2), "burst128_ideal_s": 2.0,
            "handoff_64x1s_limit16_wall_s": round(low_wall, 2), "handoff_ideal_s": 4.0}
