"""Rows are verified, not trusted: a corrupt row file is moved aside and rebuilt from the trial cache (or
the trial runs again), so a truncated results/<trial>.json never breaks a re-run."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from nightshift.flows.nightly_eval import nightly_eval
from nightshift.models import TrialResult, TrialStatus
from nightshift.tasks.results import result_path, write_result
from nightshift.tasks.row_check import check_rows, needs_row


@pytest.fixture(autouse=True)
def fixed_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("nightshift.experiment.manifest.code_version", lambda: "test-code-version")


def row(trial_id: str, status: TrialStatus = TrialStatus.resolved) -> TrialResult:
    return TrialResult(trial_id=trial_id, run_id="r1", case_id="c", suite="s", domain="d", split="public",
                       variant="v", model="m", model_version="m-1", seed=1, status=status, score=1.0)


def test_corrupt_rows_are_moved_aside_and_reported(tmp_path: Path) -> None:
    for t in ("a", "b", "c", "d"):
        write_result(tmp_path, row(t, TrialStatus.infra_error if t == "d" else TrialStatus.resolved))
    text = result_path(tmp_path, "b").read_text()
    result_path(tmp_path, "b").write_text(text[: len(text) // 2])  # truncated
    result_path(tmp_path, "c").write_text('{"trial_id": "c"}')  # parses, but is no row
    check = check_rows(tmp_path, ["a", "b", "c", "d", "e"], run_id="r1")
    assert sorted(check.rows) == ["a", "d"]
    assert sorted(check.corrupt) == ["b", "c"] and check.missing == ["e"]
    assert sorted(check.finished()) == ["a"]  # an infra error is tried again
    assert not result_path(tmp_path, "b").exists()
    assert (tmp_path / "results" / "b.json.corrupt").read_text() == text[: len(text) // 2]
    assert needs_row(tmp_path, "b") and not needs_row(tmp_path, "a")
    # a row of another run copied in by hand is not this run's row
    assert check_rows(tmp_path, ["a"], run_id="other").corrupt == ["a"]


def experiment(tmp_path: Path) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text("""
name: rows
cases: [sh-csv-column-sum]
variants:
  - {name: strong, model: sim-strong}
  - {name: weak, model: sim-weak}
seeds: [1, 2]
concurrency: 2
infra_retries: 0
model: {simulator: {latency_ms: 5}}
output_dir: out
""")
    return path


def statuses(parquet: str) -> list[tuple]:
    return duckdb.sql(f"SELECT trial_id, status, score FROM '{parquet}' ORDER BY trial_id").fetchall()


def test_corrupt_rows_are_repaired_on_the_next_run(tmp_path: Path, prefect_server) -> None:
    exp = experiment(tmp_path)
    first = nightly_eval(experiment_file=str(exp))
    before = statuses(first["parquet"])
    run_dir, cache = Path(first["run_dir"]), tmp_path / "out" / ".trial-cache"
    rows = sorted((run_dir / "results").glob("*.json"))
    assert len(rows) == 4
    originals = [TrialResult.model_validate_json(p.read_text()) for p in rows]
    rows[0].write_text(rows[0].read_text()[:40])  # a torn write: answered from the trial cache
    rows[1].write_text("")  # an empty file and no cache entry either: the trial runs again
    (cache / f"trial-{rows[1].stem}").unlink()

    second = nightly_eval(experiment_file=str(exp))
    assert statuses(second["parquet"]) == before  # same rows, same statuses: repaired, not lost
    repaired = [TrialResult.model_validate_json(p.read_text()) for p in rows]
    assert repaired[0] == originals[0]  # rebuilt from the cache, identical
    assert repaired[1].finished_at > originals[1].finished_at  # run again
    assert repaired[2:] == originals[2:]
    assert all(p.with_name(p.name + ".corrupt").is_file() for p in rows[:2])
    assert second["model_calls_this_invocation"] > 0
