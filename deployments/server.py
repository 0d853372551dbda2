"""A real local Prefect server and process worker, so runs show in the UI and the nightly schedule fires.

The server's state lives in the user's project folder (.nightshift/prefect: SQLite) and uses filesystem lease
storage, so a restart does not leak concurrency slots (DESIGN.md). Both processes are started in
their own session on purpose: they outlive the command that started them, like any service.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from nightshift.resources import project_dir
from nightshift.resources import state_dir as project_state_dir

DEFAULT_PORT = 4200
WORK_POOL = "nightshift-local"

QUIET_ENV = {
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT": "false",
    "PREFECT_SERVER_CONCURRENCY_LEASE_STORAGE": "prefect.server.concurrency.lease_storage.filesystem",
}


def project_port(state_dir: Path | None = None) -> int:
    """The port of this project's local server: $NIGHTSHIFT_PREFECT_PORT, else the port it was last started
    on (recorded in .nightshift/), else 4200. So `nightshift run` after `nightshift serve --port P` uses P."""
    if env := os.environ.get("NIGHTSHIFT_PREFECT_PORT"):
        return int(env)
    record = (state_dir or project_state_dir()) / "prefect-server.port"
    with contextlib.suppress(OSError, ValueError):
        return int(record.read_text())
    return DEFAULT_PORT


def api_url(port: int = DEFAULT_PORT) -> str:
    return f"http://127.0.0.1:{port}/api"


def server_env(port: int = DEFAULT_PORT, home: Path | None = None) -> dict[str, str]:
    return {**QUIET_ENV, "PREFECT_HOME": str(home or project_state_dir() / "prefect"), "PREFECT_API_URL": api_url(port)}


def is_up(url: str) -> bool:
    try:
        return httpx.get(f"{url}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _background(name: str, argv: list[str], env: dict[str, str], state_dir: Path) -> subprocess.Popen:
    state_dir.mkdir(parents=True, exist_ok=True)
    log = (state_dir / f"{name}.log").open("ab")
    proc = subprocess.Popen(argv, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True, cwd=project_dir())
    (state_dir / f"{name}.pid").write_text(str(proc.pid))
    return proc


def ensure_server(port: int = DEFAULT_PORT, home: Path | None = None, state_dir: Path | None = None,
                  timeout_s: float = 300) -> str:
    """Return the API URL of a running local server, starting `prefect server start` if none answers."""
    state_dir = state_dir or project_state_dir()
    env = server_env(port, home)
    url = env["PREFECT_API_URL"]
    if is_up(url):
        return url
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "prefect-server.port").write_text(str(port))
    proc = _background("prefect-server", [sys.executable, "-m", "prefect", "server", "start", "--host",
                                          "127.0.0.1", "--port", str(port)], env, state_dir)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"prefect server exited with {proc.returncode}; see {state_dir / 'prefect-server.log'}")
        if is_up(url):
            return url
        time.sleep(0.5)
    raise RuntimeError(f"prefect server did not answer within {timeout_s:.0f}s; see {state_dir / 'prefect-server.log'}")


def prefect_cli(*args: str, url: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the prefect CLI against the server at ``url`` (from the project root, as prefect.yaml expects)."""
    env = {**os.environ, **QUIET_ENV, "PREFECT_API_URL": url}
    result = subprocess.run([sys.executable, "-m", "prefect", *args], env=env, cwd=project_dir(),
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"prefect {' '.join(args)} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return result


def deploy(url: str, pool: str = WORK_POOL) -> None:
    """Create the process work pool if missing and apply prefect.yaml (deployment nightly-eval/nightly)."""
    if prefect_cli("work-pool", "inspect", pool, url=url, check=False).returncode != 0:
        prefect_cli("work-pool", "create", pool, "--type", "process", url=url)
    prefect_cli("--no-prompt", "deploy", "--all", url=url)


def start_worker(url: str, pool: str = WORK_POOL, state_dir: Path | None = None,
                 name: str = "worker") -> subprocess.Popen:
    state_dir = state_dir or project_state_dir()
    return _background(name, [sys.executable, "-m", "prefect", "worker", "start", "--pool", pool, "--name",
                              f"nightshift-{name}-{os.getpid()}"], {**QUIET_ENV, "PREFECT_API_URL": url}, state_dir)


def stop(name: str, state_dir: Path | None = None) -> bool:
    """Stop a background process started here (its whole process group); False if none is recorded."""
    pid_file = (state_dir or project_state_dir()) / f"{name}.pid"
    if not pid_file.is_file():
        return False
    with contextlib.suppress(ProcessLookupError, ValueError):
        os.killpg(int(pid_file.read_text()), 15)
    pid_file.unlink()
    return True
