"""A real local Prefect server and process worker, so runs show in the UI and the nightly schedule fires.

The server's state lives in the user's project folder (.nightshift/prefect: SQLite) and uses filesystem lease
storage, so a restart does not leak concurrency slots (DESIGN.md). With ``production=True`` it runs on the
project's own PostgreSQL and Redis instead (production.py), as Prefect advises for a server under load; the mode
is recorded, so a later `nightshift run` restarts the same kind. The server runs with Prefect's API authentication
on (auth.py): the project's credential is handed to this process and, through the environment, to everything it
starts. Every process is started in its own session on
purpose: they outlive the command that started them, like any service.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import prefect.context
import prefect.settings
import yaml
from prefect.client.orchestration import get_client
from prefect.settings import PREFECT_API_AUTH_STRING, PREFECT_API_URL, temporary_settings, update_current_profile

from nightshift.deployments.auth import (
    CLIENT_ENV,
    SERVER_ENV,
    check_server,
    credential_file,
    ensure_credential,
    read_credential,
    use_credential,
)
from nightshift.deployments.production import ProductionStack
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

# Retention, so a year of nights (1.8M task runs) does not pile up in the server's database (either engine):
# Prefect's vacuum service deletes finished top-level flow runs older than this (their task runs, states, logs
# and artifacts with them) and events older than the events retention. Results stay in the run folders'
# Parquet and the trial cache on disk, so resume and analysis never need the deleted rows. A value the operator
# exports wins.
RETENTION_ENV = {
    "PREFECT_SERVER_SERVICES_DB_VACUUM_ENABLED": "events,flow_runs",
    "PREFECT_SERVER_SERVICES_DB_VACUUM_RETENTION_PERIOD": str(30 * 86400),  # seconds: 30 days of flow runs
    "PREFECT_SERVER_EVENTS_RETENTION_PERIOD": "P7D",  # ISO 8601: this setting does not take plain seconds
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


# The task-run recorder makes the task-run rows from the event stream; Prefect's default reads and writes one
# event at a time, which on the 5,000-trial night benchmark left 2,349 (SQLite) and 3,658 (PostgreSQL) of 5,000
# task runs unrecorded when the night ended; with batches of 100 both kept up (docs/BENCHMARKS.md). A batch waits
# at most its flush interval (5 s) before it is written.
RECORDER_ENV = {
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_BATCH_SIZE": "100",
    "PREFECT_SERVER_SERVICES_TASK_RUN_RECORDER_READ_BATCH_SIZE": "100",
}


def server_env(port: int = DEFAULT_PORT, home: Path | None = None) -> dict[str, str]:
    return {**QUIET_ENV, **{k: os.environ.get(k, v) for k, v in {**RETENTION_ENV, **RECORDER_ENV}.items()},
            "PREFECT_HOME": str(home or project_state_dir() / "prefect"), "PREFECT_API_URL": api_url(port)}


def recorded_mode(state_dir: Path) -> str:
    """"production" (PostgreSQL + Redis) or "sqlite": how this project's server was last started."""
    with contextlib.suppress(OSError):
        return (state_dir / "prefect-server.mode").read_text().strip() or "sqlite"
    return "sqlite"


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
                  timeout_s: float = 300, production: bool | None = None, host: str = "127.0.0.1") -> str:
    """Return the API URL of a running local server, starting `prefect server start` if none answers.

    ``production``: on the project's PostgreSQL + Redis (started too); None: as this project's server was last
    started (SQLite the first time). The server requires the project's credential (auth.py: made on first start);
    from here on this process, and every process it starts, presents it. ``host``: what it listens on (the URL
    returned is the loopback one either way)."""
    state_dir = state_dir or project_state_dir()
    mode = recorded_mode(state_dir) if production is None else ("production" if production else "sqlite")
    secret = ensure_credential(state_dir)
    env = server_env(port, home)
    url = env["PREFECT_API_URL"]
    if is_up(url):
        if production is not None and recorded_mode(state_dir) != mode:
            raise RuntimeError(f"a Prefect server already answers on port {port}, and it is not a {mode} one this "
                               f"project started (its last was {recorded_mode(state_dir)}; or it is another "
                               f"project's): `nightshift server stop` first, or choose another --port")
        check_server(url, secret, credential_file(state_dir))  # not one that takes anyone's requests
        use_credential(secret)
        return url
    env.update({SERVER_ENV: secret, CLIENT_ENV: secret})  # the server's own services call its API too
    if mode == "production":
        env.update(ProductionStack(state_dir).ensure())
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "prefect-server.port").write_text(str(port))
    (state_dir / "prefect-server.mode").write_text(mode)
    proc = _background("prefect-server", [sys.executable, "-m", "prefect", "server", "start", "--host",
                                          host, "--port", str(port)], env, state_dir)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"prefect server exited with {proc.returncode}; see {state_dir / 'prefect-server.log'}")
        if is_up(url):
            use_credential(secret)
            return url
        time.sleep(0.5)
    raise RuntimeError(f"prefect server did not answer within {timeout_s:.0f}s; see {state_dir / 'prefect-server.log'}")


def present_own_credential(url: str, state_dir: Path | None = None) -> bool:
    """An exported PREFECT_API_URL without an exported credential: when it is this project's own server (loopback,
    the project's port), present the project's credential. Never for another address: that would hand it to
    whoever answers there. Whether it did."""
    state_dir = state_dir or project_state_dir()
    parsed = httpx.URL(url)
    if os.environ.get(CLIENT_ENV) or parsed.host not in ("127.0.0.1", "localhost") \
            or parsed.port != project_port(state_dir):
        return False
    if (secret := read_credential(credential_file(state_dir))) is None:
        return False
    use_credential(secret)
    return True


def point_prefect_at(url: str) -> None:
    """Make ``url`` this process's Prefect API (and its subprocesses'). Prefect reads its settings once, when it is
    imported: an environment variable set after that is not seen, and the flow would start a temporary server of
    its own (20 s to start; a loaded machine times out) while the UI link points at this one."""
    os.environ["PREFECT_API_URL"] = url
    prefect.context.refresh_global_settings_context()


def prefect_cli(*args: str, url: str, check: bool = True) -> subprocess.CompletedProcess:
    """Run the prefect CLI against the server at ``url`` (from the project root, as prefect.yaml expects)."""
    env = {**os.environ, **QUIET_ENV, "PREFECT_API_URL": url}
    result = subprocess.run([sys.executable, "-m", "prefect", *args], env=env, cwd=project_dir(),
                            capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"prefect {' '.join(args)} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return result


def point_profile_at(url: str) -> Path:
    """Point the user's own `prefect` CLI at this server (their active profile: its URL and credential), so the
    documented `prefect deployment run nightly-eval/nightly` reaches it. The profiles file now holds a secret:
    it is made readable by its owner alone. Returns its path."""
    profiles = Path(prefect.settings.get_current_settings().profiles_path or Path.home() / ".prefect/profiles.toml")
    if profiles.is_file():  # 0600 before the secret is in it (the write keeps the mode; Prefect makes a new one 0600)
        profiles.chmod(0o600)
    # in this process, not `prefect config set`: a secret on a command line is visible to every local user
    update_current_profile({PREFECT_API_URL: url, PREFECT_API_AUTH_STRING: os.environ[CLIENT_ENV]})
    return profiles


def deploy(url: str, pool: str = WORK_POOL) -> None:
    """Create the process work pool if missing and apply prefect.yaml's deployments whose work pool exists.

    A deployment on a pool not made yet (the docker shard's, until ``nightshift docker-pool`` creates it)
    is left out: ``prefect deploy`` fails on it, and it would take the others down with it."""

    if prefect_cli("work-pool", "inspect", pool, url=url, check=False).returncode != 0:
        prefect_cli("work-pool", "create", pool, "--type", "process", url=url)
    config = yaml.safe_load((project_dir() / "prefect.yaml").read_text()) or {}
    wanted = [(d["name"], (d.get("work_pool") or {}).get("name", pool)) for d in config.get("deployments") or []]
    pools = set(_work_pools(url))
    names = [name for name, on in wanted if on in pools]
    prefect_cli("--no-prompt", "deploy", *(a for name in names for a in ("--name", name)), url=url)


def _work_pools(url: str) -> list[str]:
    with temporary_settings(updates={PREFECT_API_URL: url}), get_client(sync_client=True) as client:
        return [p.name for p in client.read_work_pools()]


def start_worker(url: str, pool: str = WORK_POOL, state_dir: Path | None = None,
                 name: str = "worker") -> subprocess.Popen:
    state_dir = state_dir or project_state_dir()
    return _background(name, [sys.executable, "-m", "prefect", "worker", "start", "--pool", pool, "--name",
                              f"nightshift-{name}-{os.getpid()}"], {**QUIET_ENV, "PREFECT_API_URL": url}, state_dir)


def stop(name: str, state_dir: Path | None = None, wait_s: float = 0) -> bool:
    """Stop a background process started here (its whole process group); False if none is recorded.
    ``wait_s``: wait that long for the group to exit (then kill it), for a caller that stops what it uses next."""
    pid_file = (state_dir or project_state_dir()) / f"{name}.pid"
    if not pid_file.is_file():
        return False
    with contextlib.suppress(ProcessLookupError, ValueError):
        group = int(pid_file.read_text())
        os.killpg(group, 15)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            with contextlib.suppress(ChildProcessError):  # started by this process: reap it, or it stays a zombie
                os.waitpid(group, os.WNOHANG)
            os.killpg(group, 0)  # ProcessLookupError once the whole group is gone
            time.sleep(0.1)
        if wait_s:
            os.killpg(group, 9)
    pid_file.unlink()
    return True

def stop_all(state_dir: Path | None = None) -> dict[str, bool]:
    """Stop the worker, the Prefect server and, for a production server, its Redis and PostgreSQL (in that
    order: the server flushes to them on its way down). Name → whether one was running."""
    state_dir = state_dir or project_state_dir()
    stopped = {"worker": stop("worker", state_dir), "prefect-server": stop("prefect-server", state_dir, wait_s=30)}
    if (state_dir / "production.json").is_file():
        stopped["redis"] = stop("redis", state_dir, wait_s=30)
        stopped["postgres"] = ProductionStack(state_dir).stop_postgres()
    return stopped
