"""Start (or find) a real local `prefect server start`, so runs show in the UI and schedules fire.

The server's state lives in the project (.nightshift/prefect) and uses filesystem lease storage,
so a restart does not leak concurrency slots (DESIGN.md).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

PROJECT_ROOT = Path(__file__).resolve().parent.parent
STATE_DIR = PROJECT_ROOT / ".nightshift"
DEFAULT_PORT = 4200

QUIET_ENV = {
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
    "PREFECT_SERVER_CONCURRENCY_LEASE_STORAGE": "prefect.server.concurrency.lease_storage.filesystem",
}


def server_env(port: int = DEFAULT_PORT) -> dict[str, str]:
    return {**QUIET_ENV, "PREFECT_HOME": str(STATE_DIR / "prefect"),
            "PREFECT_API_URL": f"http://127.0.0.1:{port}/api"}


def is_up(api_url: str) -> bool:
    try:
        return httpx.get(f"{api_url}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def ensure_server(port: int = DEFAULT_PORT, timeout_s: float = 90) -> str:
    """Return the API URL of a running local server, starting one in the background if needed."""
    env = server_env(port)
    api_url = env["PREFECT_API_URL"]
    if is_up(api_url):
        return api_url
    STATE_DIR.mkdir(exist_ok=True)
    log = (STATE_DIR / "prefect-server.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True)  # outlives this command on purpose: the UI and the schedule need it
    (STATE_DIR / "prefect-server.pid").write_text(str(proc.pid))
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"prefect server exited with {proc.returncode}; see {STATE_DIR / 'prefect-server.log'}")
        if is_up(api_url):
            return api_url
        time.sleep(0.5)
    raise RuntimeError(f"prefect server did not answer within {timeout_s:.0f}s; see {STATE_DIR / 'prefect-server.log'}")


def stop_server() -> bool:
    pid_file = STATE_DIR / "prefect-server.pid"
    if not pid_file.is_file():
        return False
    with contextlib.suppress(ProcessLookupError):
        os.killpg(int(pid_file.read_text()), 15)
    pid_file.unlink()
    return True
