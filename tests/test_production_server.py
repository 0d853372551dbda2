"""The production control plane: a real night through Prefect's server on the project's own PostgreSQL and Redis
(Debian's postgresql and redis-server, prefect-redis), then everything stopped; and the errors that say what to
install when a part is missing."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pytest
import redis

from nightshift.deployments import production
from nightshift.deployments.production import ProductionSetupError, ProductionStack
from tests.conftest import free_port


def experiment(tmp_path: Path) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text("""
name: prod
cases: [sh-csv-column-sum, py-bugfix-slugify]
variants:
  - {name: strong, model: sim-strong}
  - {name: weak, model: sim-weak}
seeds: [1, 2]
concurrency: 4
model: {simulator: {latency_ms: 5}}
output_dir: out
""")
    return path


def sql(stack: ProductionStack, query: str) -> list[tuple]:
    import asyncpg

    async def fetch() -> list[tuple]:
        conn = await asyncpg.connect(stack.database_url.replace("postgresql+asyncpg", "postgresql"))
        try:
            return [tuple(r) for r in await conn.fetch(query)]
        finally:
            await conn.close()

    return asyncio.run(fetch())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has exited


@pytest.fixture
def project() -> Path:
    """A project folder the `postgres` system user can traverse (pytest's tmp_path is 0700 root's)."""
    folder = Path(tempfile.mkdtemp(prefix="nightshift-production-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.timeout(600)
def test_night_on_postgres_and_redis(project: Path) -> None:
    from nightshift.deployments.server import ensure_server, stop_all

    tmp_path, state, port = project, project / ".nightshift", free_port()
    try:
        url = ensure_server(port=port, home=state / "home", state_dir=state, production=True, timeout_s=300)
        stack = ProductionStack(state)
        server_env = Path(f"/proc/{(state / 'prefect-server.pid').read_text()}/environ").read_bytes().split(b"\0")
        assert b"PREFECT_MESSAGING_BROKER=prefect_redis.messaging" in server_env
        assert b"PREFECT_SERVER_SERVICES_DB_VACUUM_ENABLED=events,flow_runs" in server_env  # retention is on
        with pytest.raises(RuntimeError, match="already answers on port .* not a sqlite one"):
            ensure_server(port=port, home=state / "home", state_dir=state, production=False)

        env = {**os.environ, "PREFECT_API_URL": url, "NIGHTSHIFT_CODE_VERSION": "production-test"}
        night = subprocess.run([sys.executable, "-m", "nightshift.cli", "run", str(experiment(tmp_path))], env=env,
                               capture_output=True, text=True, timeout=400, cwd=tmp_path)
        assert night.returncode == 0, night.stdout[-3000:] + night.stderr[-3000:]
        parquet = next((tmp_path / "out").glob("prod-*/results.parquet"))
        assert duckdb.sql(f"SELECT count(DISTINCT trial_id) FROM '{parquet}'").fetchall()[0][0] == 8

        # the night's flow run and its task runs are rows in Postgres, not in a SQLite file
        runs = sql(stack, "SELECT r.id, r.state_type FROM flow_run r JOIN flow f ON f.id = r.flow_id "
                          "WHERE f.name = 'nightly-eval'")
        assert [state_type for _, state_type in runs] == ["COMPLETED"]
        # the server records task runs and events from the event stream, in batches (at most 5 s behind): each
        # trial's task run, and its final state event (named for the state: prefect.task-run.resolved, ...),
        # went through the Redis stream to the task-run recorder and the event persister, into Postgres
        assert redis.Redis.from_url(stack.redis_url(0)).xinfo_groups("events")
        trials = ("SELECT count(*) FROM task_run WHERE flow_run_id = '{0}' AND task_key LIKE 'run_trial%' "
                  "AND state_type = 'COMPLETED'")
        final_events = ("SELECT count(DISTINCT resource_id) FROM events WHERE event NOT IN "
                        "('prefect.task-run.Pending', 'prefect.task-run.Running') AND resource_id IN (SELECT "
                        "'prefect.task-run.' || id::text FROM task_run WHERE flow_run_id = '{0}' AND task_key "
                        "LIKE 'run_trial%')")
        deadline, recorded = time.monotonic() + 60, (0, 0)
        while time.monotonic() < deadline and recorded != (8, 8):
            recorded = tuple(sql(stack, q.format(runs[0][0]))[0][0] for q in (trials, final_events))
            time.sleep(1)
        assert recorded == (8, 8)
    finally:
        postmaster = ProductionStack(state).postmaster_pid()
        stopped = stop_all(state)
    log = (state / "prefect-server.log").read_text()
    assert "dropping" not in log.lower(), log[-3000:]
    assert stopped == {"worker": False, "prefect-server": True, "redis": True, "postgres": True}
    assert postmaster and not alive(postmaster)
    assert not ProductionStack(state).redis_up()


def test_missing_parts_name_their_install_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no redis-server, no pg_ctl
    with pytest.raises(ProductionSetupError, match="apt-get install redis-server"):
        production.check_packages()
    monkeypatch.setattr(production.glob, "glob", lambda pattern: [])  # no /usr/lib/postgresql/*/bin either
    with pytest.raises(ProductionSetupError, match="apt-get install postgresql"):
        production.postgres_bin()
    real_find_spec = production.importlib.util.find_spec
    monkeypatch.setattr(production.importlib.util, "find_spec",
                        lambda name: None if name == "prefect_redis" else real_find_spec(name))
    with pytest.raises(ProductionSetupError, match=r"prefect_redis missing .*nightshift\[production\]"):
        production.check_packages()


def test_the_stack_keeps_its_ports_and_password(tmp_path: Path) -> None:
    first = ProductionStack(tmp_path)
    again = ProductionStack(tmp_path)
    assert first.config == again.config  # a restart finds its database where it left it
    assert (tmp_path / "production.json").stat().st_mode & 0o077 == 0  # the password file is the user's alone
    assert json.loads((tmp_path / "production.json").read_text())["password"] in first.database_url
