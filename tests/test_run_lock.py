"""One writer per run: a second copy of a night is refused with its owner named; a dead owner's lock is taken
over, and its flow run, left 'Running' in Prefect by the kill, is set to Crashed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nightshift.flows.run_lock import RunLocked, acquire


def test_second_holder_is_refused_with_the_owner_named(tmp_path: Path) -> None:
    lock = acquire(tmp_path / "run", flow_run_id="fr-1")
    assert lock.previous is None
    with pytest.raises(RunLocked) as refused:
        acquire(tmp_path / "run")
    assert f"pid {os.getpid()}" in str(refused.value) and "flow run fr-1" in str(refused.value)
    lock.release()
    assert not (tmp_path / "run" / "run.lock").exists()
    with acquire(tmp_path / "run") as again:
        assert again.previous is None


def test_a_killed_owner_is_taken_over(tmp_path: Path) -> None:
    code = ("import sys, time; from pathlib import Path; from nightshift.flows.run_lock import acquire; "
            "acquire(Path(sys.argv[1]), flow_run_id='fr-dead'); print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "run")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(RunLocked, match=f"pid {holder.pid} "):
            acquire(tmp_path / "run")
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    with acquire(tmp_path / "run") as lock:
        assert lock.previous["pid"] == holder.pid and lock.previous["flow_run_id"] == "fr-dead"
        assert lock.owner["pid"] == os.getpid()


def experiment(tmp_path: Path) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text("""
name: locked
cases: [sh-csv-column-sum]
variants:
  - {name: strong, model: sim-strong}
  - {name: weak, model: sim-weak}
seeds: [1, 2, 3, 4, 5, 6, 7, 8]
concurrency: 2
model: {simulator: {latency_ms: 5}}
output_dir: out
""")
    return path


def flow_run_state(flow_run_id: str) -> str:
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        return client.read_flow_run(flow_run_id).state.type.value


@pytest.mark.timeout(600)
def test_second_night_refused_then_killed_night_marked_crashed(tmp_path: Path, prefect_server, capsys,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from nightshift.cli import main
    from nightshift.flows.nightly_eval import nightly_eval
    from nightshift.flows.run_lock import _read

    monkeypatch.delenv("NIGHTSHIFT_OWNS_PROCESS", raising=False)  # main() sets it; this process is pytest's
    env = {**os.environ, "NIGHTSHIFT_CODE_VERSION": "lock-test"}
    monkeypatch.setenv("NIGHTSHIFT_CODE_VERSION", "lock-test")
    exp = experiment(tmp_path)
    first = subprocess.Popen([sys.executable, "-m", "nightshift.cli", "run", str(exp)], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not list((tmp_path / "out").glob("locked-*/results/*.json")) and time.monotonic() < deadline:
            assert first.poll() is None, "the first night ended early"
            time.sleep(0.2)
        # held still, lock and all: on a loaded machine the 16 trials would finish before the second run starts
        first.send_signal(signal.SIGSTOP)
        run_dir = next((tmp_path / "out").glob("locked-*"))
        capsys.readouterr()
        assert main(["run", str(exp)]) == 3  # the cron firing while the manual run still goes
        said = capsys.readouterr().out
        assert "RunLocked" in said and f"pid {first.pid} " in said and str(run_dir) in said.replace("\n", "")
        holder = _read(os.open(run_dir / "run.lock", os.O_RDONLY))
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    stale = holder["flow_run_id"]
    assert flow_run_state(stale) == "RUNNING"  # what the UI shows for ever after a kill

    summary = nightly_eval(experiment_file=str(exp))
    assert summary["trials"] == 16 and Path(summary["parquet"]).is_file()
    assert flow_run_state(stale) == "CRASHED"
    assert not (run_dir / "run.lock").exists()  # released at the end
