"""Prefect is the control plane, not the data plane: a server killed mid-night leaves every trial running,
the Parquet file, the report and the summary written from the rows on disk, and the process exits within
60 s; after a restart the next night tells Prefect how the orphaned flow run ended."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from tests.conftest import free_port


def experiment(tmp_path: Path) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text("""
name: outage
cases: [sh-csv-column-sum, py-bugfix-slugify]
variants:
  - {name: strong, model: sim-strong}
  - {name: weak, model: sim-weak}
seeds: [1, 2, 3, 4]
concurrency: 2
model: {simulator: {latency_ms: 5}}
output_dir: out
""")
    return path


def flow_run_state(url: str, flow_run_id: str) -> str:
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings(updates={PREFECT_API_URL: url}), get_client(sync_client=True) as client:
        return client.read_flow_run(flow_run_id).state.type.value


@pytest.mark.timeout(900)
def test_server_killed_mid_night(tmp_path: Path) -> None:
    from nightshift.deployments.server import stop

    state, port = tmp_path / "prefect-state", free_port()
    state.mkdir()
    try:
        night_and_restart(tmp_path, state, port)
    finally:
        stop("prefect-server", state)  # never leave our server behind, whatever failed


def night_and_restart(tmp_path: Path, state: Path, port: int) -> None:
    from nightshift.deployments.server import ensure_server, stop

    url = ensure_server(port=port, home=state / "home", state_dir=state, timeout_s=300)
    env = {**os.environ, "PREFECT_API_URL": url, "NIGHTSHIFT_CODE_VERSION": "outage-test"}
    exp, out = experiment(tmp_path), tmp_path / "out"
    night = subprocess.Popen([sys.executable, "-m", "nightshift.cli", "run", str(exp)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 300
        while len(list(out.glob("outage-*/results/*.json"))) < 3 and time.monotonic() < deadline:
            assert night.poll() is None, night.stdout.read()
            time.sleep(0.1)
        run_dir = next(out.glob("outage-*"))
        flow_run_id = json.loads((run_dir / "run.lock").read_text())["flow_run_id"]
        stop("prefect-server", state)  # our own server: the night's control plane goes away
        killed = last_row = time.monotonic()
        while night.poll() is None and time.monotonic() < deadline:
            if len(list(run_dir.glob("results/*.json"))) < 16:
                last_row = time.monotonic()
            time.sleep(0.2)
        ended = time.monotonic()
        log = night.stdout.read()
    finally:
        if night.poll() is None:
            night.kill()
            night.wait()
    assert night.returncode == 0, log[-3000:]
    assert ended - last_row < 60, f"exit took {ended - last_row:.0f} s after the last row"
    # trials keep their pace: no per-trial UI call waits out the client's retries (tasks/trial_state.py's rename
    # goes through the night's Publisher; before, each trial after the outage took ~70 s, the last row ~8 min)
    assert last_row - killed < 120, f"the 13 trials after the outage took {last_row - killed:.0f} s"
    parquet = run_dir / "results.parquet"
    total, distinct = duckdb.sql(f"SELECT count(*), count(DISTINCT trial_id) FROM '{parquet}'").fetchall()[0]
    assert total == distinct == 16
    assert (run_dir / "report.md").is_file() and (run_dir / "report.html").is_file()
    assert json.loads((run_dir / "summary.json").read_text())["trials"] == 16
    assert "Prefect API" in log  # said, not hidden
    assert json.loads((run_dir / "run.lock").read_text())["ended"] == "completed"  # left for the next night

    url = ensure_server(port=port, home=state / "home", state_dir=state, timeout_s=300)  # same database
    assert flow_run_state(url, flow_run_id) == "RUNNING"  # the orphan the UI would show for ever
    again = subprocess.run([sys.executable, "-m", "nightshift.cli", "run", str(exp)], env=env,
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert flow_run_state(url, flow_run_id) == "COMPLETED"
    assert not (run_dir / "run.lock").exists()
