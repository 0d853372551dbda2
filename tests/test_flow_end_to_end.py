"""One small night through the real flow: simulator over HTTP, bubblewrap sandboxes, Parquet, resume."""

from pathlib import Path

import duckdb
import pytest

import nightshift.tasks.run_trial as run_trial_module
from nightshift.experiment.manifest import RunManifest
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.suites import load_cases
from tests.conftest import BUILTIN

CASES = ["py-bugfix-slugify", "sh-csv-column-sum", "dt-jsonl-daily-summary"]


@pytest.fixture(autouse=True)
def fixed_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin the code version: an edit elsewhere in a dirty checkout would otherwise start a new run mid-test."""
    monkeypatch.setattr("nightshift.experiment.manifest.code_version", lambda: "test-code-version")


def experiment(tmp_path: Path, cases: list[str] = CASES, retries: int = 0) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"""
name: e2e
suites: [builtin]
cases: {cases}
variants:
  - {{name: strong, model: sim-strong}}
  - {{name: weak, model: sim-weak}}
seeds: [1, 2]
concurrency: 3
infra_retries: {retries}
model: {{simulator: {{latency_ms: 5}}}}
output_dir: out
""")
    return path


def rows(parquet: str) -> list[tuple]:
    query = f"SELECT trial_id, variant, case_id, seed, status, score FROM '{parquet}' ORDER BY trial_id"
    return duckdb.sql(query).fetchall()


def rounded(records: list[dict]) -> list[dict]:
    """DuckDB's parallel float aggregation may differ in the last bit between runs."""
    return [{k: round(v, 9) if isinstance(v, float) else v for k, v in r.items()} for r in records]


def test_night_runs_then_resumes_without_model_calls(tmp_path: Path, prefect_server) -> None:
    exp = experiment(tmp_path)
    first = nightly_eval(experiment_file=str(exp))
    table = rows(first["parquet"])
    assert len(table) == 3 * 2 * 2 == len({r[0] for r in table})  # one row per trial, no duplicates
    assert first["model_calls_this_invocation"] > 0
    assert {r[4] for r in table} <= {"resolved", "failed", "step_limit"}
    manifest = RunManifest.read(Path(first["run_dir"]) / "manifest.json")
    assert manifest.models["strong"].version.startswith("sim-strong-")
    assert set(manifest.cases) == set(CASES)
    trajectories = list((Path(first["run_dir"]) / "trajectories").glob("*.jsonl"))
    # a held-out case kept in a plain folder has no key to seal its trajectory with: none is kept (docs/SPLITS.md)
    held = {c.id for c in load_cases(BUILTIN, CASES) if c.protected}
    assert held and len(trajectories) == sum(r[2] not in held for r in table)

    second = nightly_eval(experiment_file=str(exp))
    assert second["model_calls_this_invocation"] == 0
    assert second["run_dir"] == first["run_dir"]
    assert rows(second["parquet"]) == table
    assert rounded(second["scores"]) == rounded(first["scores"])


def test_infra_failure_of_one_case_is_kept_apart_and_loses_nothing(tmp_path: Path, prefect_server,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    real_run = run_trial_module.run_harness  # the machinery around the harness, not the harness's own code
    attempts: list[str] = []

    def flaky(spec, *args, **kwargs):
        if spec.case.id == "sh-csv-column-sum":
            attempts.append(spec.case.id)
            raise OSError("sandbox host ran out of file descriptors")
        return real_run(spec, *args, **kwargs)

    monkeypatch.setattr(run_trial_module, "run_harness", flaky)
    summary = nightly_eval(experiment_file=str(experiment(tmp_path, retries=1)))
    table = rows(summary["parquet"])
    assert len(table) == 12
    infra = [r for r in table if r[4] == "infra_error"]
    assert {r[2] for r in infra} == {"sh-csv-column-sum"} and len(infra) == 4
    assert len(attempts) == 8  # each of the 4 trials tried twice (1 retry), agent failures never retried
    for score in summary["scores"]:
        assert score["infra_errors"] == 2 and score["trials"] == 4  # excluded from the denominator

    monkeypatch.setattr(run_trial_module, "run_harness", real_run)
    again = nightly_eval(experiment_file=str(experiment(tmp_path, retries=1)))
    assert again["model_calls_this_invocation"] > 0  # only the infra failures run again
    again_rows = rows(again["parquet"])
    assert again_rows and all(r[4] != "infra_error" for r in again_rows)


def test_trial_cache_on_a_storage_block_is_shared_by_runs_in_other_folders(tmp_path: Path, prefect_server) -> None:
    """result_storage names a Prefect storage block (S3 via prefect-aws in production; a local one here):
    a run writing to another output folder, as a worker on another machine would, still skips the trials."""
    from prefect.filesystems import LocalFileSystem

    shared = tmp_path / "shared-cache"
    LocalFileSystem(basepath=str(shared)).save("nightshift-test-cache", overwrite=True)
    first_dir, second_dir = tmp_path / "worker-a", tmp_path / "worker-b"
    for folder in (first_dir, second_dir):
        folder.mkdir()
        exp = experiment(folder, cases=CASES[:1])
        exp.write_text(exp.read_text() + "result_storage: local-file-system/nightshift-test-cache\n")
    first = nightly_eval(experiment_file=str(first_dir / "exp.yaml"))
    assert first["model_calls_this_invocation"] > 0
    assert len(list(shared.glob("trial-*"))) == 4  # 1 case × 2 variants × 2 seeds
    assert not (first_dir / "out" / ".trial-cache").exists()
    second = nightly_eval(experiment_file=str(second_dir / "exp.yaml"))
    assert second["model_calls_this_invocation"] == 0
    assert rows(second["parquet"]) == rows(first["parquet"])
