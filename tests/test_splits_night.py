"""One tiny night on a sealed held-out case (bubblewrap, the simulator, a real Prefect server): a canary seeded in
every protected file of the case is found nowhere the night wrote — run folder, run store, scratch, temp files,
the Prefect server's home and database — while the trajectory is kept sealed; the audit log records the night,
the budget refuses the next one, and without the key the night is refused before any trial."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import duckdb
import pytest
from cryptography.fernet import Fernet

from nightshift.cli import main
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.splits import SplitAccessError
from nightshift.splits.audit import verify
from nightshift.suites import load_cases
from tests.conftest import _STATE, REPO
from tests.splits_support import HELD_OUT_CASE, PUBLIC_CASE, canaried_suite, canary

ENV = "NIGHTSHIFT_SPLIT_KEY_HELDOUT"


def _files_with(mark: bytes, roots: list[Path], newer_than: float = 0.0) -> list[Path]:
    hits = []
    for root in roots:
        for folder, _, names in os.walk(root):
            for name in names:
                path = Path(folder) / name
                try:
                    info = path.stat()
                    if info.st_mtime < newer_than or info.st_size > 64 << 20 or not path.is_file():
                        continue
                    if mark in path.read_bytes():
                        hits.append(path)
                except OSError:
                    continue  # gone meanwhile, or not ours to read
    return hits


def _task_run_names(label: str, timeout_s: float = 60) -> list[str]:
    """Names of the Prefect server's task runs for the held-out case, once it has recorded them (the tests' log
    level is WARNING, so their info lines never reach it; tasks/trial_state.py names the case the same way)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import TaskRunFilter, TaskRunFilterName

    deadline = time.monotonic() + timeout_s
    while True:
        with get_client(sync_client=True) as client:
            runs = client.read_task_runs(task_run_filter=TaskRunFilter(name=TaskRunFilterName(like_=label)))
        if runs or time.monotonic() > deadline:
            return [r.name for r in runs]
        time.sleep(1)


def test_a_sealed_held_out_night_leaves_no_canary_is_audited_and_budgeted(tmp_path: Path, prefect_server,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture) -> None:
    began = time.time() - 1
    mark = canary()
    suite = canaried_suite(tmp_path, mark)
    key_file = tmp_path / "heldout.key"
    assert main(["seal", str(suite), "--split", "heldout", "--key-file", str(key_file)]) == 0
    monkeypatch.setenv(ENV, key_file.read_text().strip())
    assert main(["validate-suite", str(suite), "--repeats", "1"]) == 0  # on the sealed suite, given the key
    label = next(c.label for c in load_cases(suite) if c.id == HELD_OUT_CASE)
    exp = tmp_path / "exp.yaml"
    exp.write_text(f"""
name: sealed-night
suites: [{suite}]
variants: [{{name: strong, model: sim-strong}}]
seeds: [1]
concurrency: 2
model: {{simulator: {{latency_ms: 5}}}}
splits: {{heldout: {{budget: {{runs: 1, days: 7}}}}}}
output_dir: out
""")
    assert main(["check", str(exp)]) == 0  # check reports the budget too (nothing spent yet)
    assert "budget heldout: 1 runs per 7 days" in capsys.readouterr().out
    summary = nightly_eval(experiment_file=str(exp))
    run_dir = Path(summary["run_dir"])
    query = f"SELECT case_id, split, status, f2p_total, hidden_total, reason FROM '{summary['parquet']}'"
    rows = {r[0]: r for r in duckdb.sql(query).fetchall()}
    assert set(rows) == {PUBLIC_CASE, HELD_OUT_CASE} and rows[HELD_OUT_CASE][1] == "heldout"
    assert rows[HELD_OUT_CASE][2] in {"resolved", "failed"}  # graded on the opened case: its tests and hidden tests
    assert rows[HELD_OUT_CASE][3] == 3 and rows[HELD_OUT_CASE][4] > 0
    sealed = list((run_dir / "trajectories").glob("*.jsonl.fernet"))
    assert len(sealed) == 1 and mark.encode() in Fernet(os.environ[ENV]).decrypt(sealed[0].read_bytes())

    names = _task_run_names(label)  # the server has recorded the trial before its files are searched
    assert names and all(n.startswith(label) for n in names)
    roots = [tmp_path / "out", _STATE, REPO / ".nightshift"]
    assert _files_with(mark.encode(), roots) == []
    assert _files_with(mark.encode(), [Path(tempfile.gettempdir())], newer_than=began) == []

    resumed = nightly_eval(experiment_file=str(exp))  # the same run again: not a new submission
    assert resumed["run_dir"] == str(run_dir) and resumed["model_calls_this_invocation"] == 0
    exp.write_text(exp.read_text().replace("seeds: [1]", "seeds: [2]"))  # a new run of the same model version
    with pytest.raises(SplitAccessError, match="budget of 1 runs per 7 days spent"):
        nightly_eval(experiment_file=str(exp))
    capsys.readouterr()
    assert main(["check", str(exp)]) == 2  # and refuses it, as run does, for the version the variant last ran as
    said = " ".join(capsys.readouterr().out.split())
    assert "budget of 1 runs per 7 days spent" in said and "last ran as" in said
    monkeypatch.delenv(ENV)
    with pytest.raises(SplitAccessError, match=f"need the heldout key: {HELD_OUT_CASE}"):
        nightly_eval(experiment_file=str(exp))
    entries = [e.data for e in verify(tmp_path / "out" / "audit.jsonl")]
    assert [(e["event"], e["outcome"]) for e in entries] == [
        ("started", {"started": 1}), ("finished", {"heldout": {"trials": 1, rows[HELD_OUT_CASE][2]: 1}})] * 2 + [
        ("refused", {"refused": "budget spent"}), ("refused", {"refused": "no grant"})]
    assert entries[0]["splits"] == {"heldout": [label]} and entries[0]["run_id"] == run_dir.name
    assert entries[0]["model_versions"]["strong"].startswith("sim-strong")
    assert HELD_OUT_CASE not in (tmp_path / "out" / "audit.jsonl").read_text()


def test_a_key_in_a_prefect_secret_block_is_a_grant(prefect_server, monkeypatch: pytest.MonkeyPatch) -> None:
    from prefect.blocks.system import Secret

    from nightshift.splits import split_key

    key = Fernet.generate_key().decode()
    Secret(value=key).save("nightshift-test-heldout-key", overwrite=True)
    monkeypatch.delenv(ENV, raising=False)
    assert split_key("heldout") is None
    assert split_key("heldout", "nightshift-test-heldout-key") == key.encode()
    with pytest.raises(SplitAccessError, match="'no-such-block' not found"):
        split_key("heldout", "no-such-block")
    Secret(value="not-a-key").save("nightshift-test-bad-key", overwrite=True)
    with pytest.raises(SplitAccessError, match="not a Fernet key"):
        split_key("heldout", "nightshift-test-bad-key")
