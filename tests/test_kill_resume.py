"""SIGKILL the flow process at 2 random points of a 120-trial night (a fresh start killed, then its resume
killed); the finished night has exactly 120 rows, and only trials in flight at a kill were run twice (read from
the simulator's request logs)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from tests.conftest import BUILTIN

CONCURRENCY = 8
CASES, SEEDS, KILLS = 12, 5, 2
TRIALS = CASES * 2 * SEEDS


def night(tmp_path: Path) -> Path:
    cases = sorted(p.name for p in BUILTIN.iterdir() if (p / "case.toml").is_file())[:CASES]
    path = tmp_path / "night.yaml"
    path.write_text(f"""
name: killed
cases: {cases}
variants:
  - {{name: strong, model: sim-strong}}
  - {{name: weak, model: sim-weak}}
seeds: {list(range(1, SEEDS + 1))}
concurrency: {CONCURRENCY}
model: {{simulator: {{latency_ms: 5}}}}
output_dir: out
""")
    return path


def start(exp: Path) -> subprocess.Popen:
    env = {**os.environ, "NIGHTSHIFT_CODE_VERSION": "kill-test"}
    return subprocess.Popen([sys.executable, "-m", "nightshift.cli", "run", str(exp)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finished_rows(out: Path) -> int:
    return sum(len(list(run.glob("results/*.json"))) for run in out.glob("killed-*"))


def our_processes(marker: str) -> list[str]:
    """Command lines of live processes that mention marker (our temp folders are unique to this test)."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in cmd and "pytest" not in cmd:
                found.append(cmd)
    return found


def trials_per_log(out: Path) -> list[set[tuple]]:
    """Per invocation (one simulator log each, in start order): the trials that made model calls."""
    logs = sorted((out / ".simulator").glob("requests-*.jsonl"), key=lambda p: p.stat().st_mtime)
    per_log = []
    for log in logs:
        records = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        per_log.append({(r["case_id"], r["model"], r["seed"]) for r in records if r["case_id"] and r["status"] == 200})
    return per_log


@pytest.mark.timeout(1200)
def test_sigkill_twice_then_finish(tmp_path: Path, prefect_server: str) -> None:
    exp = night(tmp_path)
    out = tmp_path / "out"
    rng = random.Random(20261129)
    kill_points = sorted(rng.sample(range(20, TRIALS - 20), KILLS))
    for point in kill_points:
        proc = start(exp)
        deadline = time.monotonic() + 300
        while finished_rows(out) < point and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, "the night ended before its kill point"
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        time.sleep(1.0)
        # the simulator and every sandbox process die with the flow process
        assert our_processes(str(tmp_path)) == [], "processes outlived the killed flow"
    final = start(exp)
    assert final.wait(timeout=900) == 0

    parquet = next(out.glob("killed-*/results.parquet"))
    total, distinct = duckdb.sql(f"SELECT count(*), count(DISTINCT trial_id) FROM '{parquet}'").fetchall()[0]
    assert total == distinct == TRIALS
    assert duckdb.sql(f"SELECT count(*) FROM '{parquet}' WHERE status = 'infra_error'").fetchall()[0][0] == 0

    per_log = trials_per_log(out)
    assert len(per_log) == KILLS + 1
    assert len(set().union(*per_log)) == TRIALS  # every trial called the model in some invocation
    for i, calls in enumerate(per_log[:-1]):
        ran_again = calls & set().union(*per_log[i + 1:])
        assert len(ran_again) <= CONCURRENCY, f"kill {i}: {len(ran_again)} trials ran twice, more than were in flight"
    # the next start reaped every sandbox the killed processes left
    sandbox_root = Path(os.environ["NIGHTSHIFT_SANDBOX_ROOT"])
    assert list(sandbox_root.glob("nsb-*")) == []
    # a kill between mkdir and the owner record leaves an empty staging folder, reaped a minute later
    assert all(not any(p.iterdir()) for p in sandbox_root.glob(".nsb-*.creating"))
    assert list(sandbox_root.glob(".nsb-*.deleting")) == []
