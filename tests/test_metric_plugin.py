"""A metric from another package, end to end: pip installs the test distribution (tests/fixtures/
nightshift-fastpass), its entry point registers it, a real night grades it, and it reaches the Parquet file,
the manifest's pins, `nightshift compare`, the report and `nightshift plugins`, with its own verdict."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from nightshift.cli import main
from nightshift.experiment.manifest import RunManifest
from tests.conftest import REPO

FIXTURE = REPO / "tests" / "fixtures" / "nightshift-fastpass"
CASES = ["py-bugfix-slugify", "sh-csv-column-sum"]


@pytest.fixture
def fastpass_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pip-install the fixture distribution into a folder on sys.path (the venv itself stays untouched)."""
    source, site = tmp_path / "src", tmp_path / "site"
    shutil.copytree(FIXTURE, source)  # pip builds in the source tree: keep the checkout clean
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-deps",
                           "--no-index", "--target", str(site), str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (site / "nightshift_fastpass-0.3.1.dist-info" / "entry_points.txt").is_file()
    monkeypatch.syspath_prepend(str(site))  # how an installed package becomes visible: a folder on sys.path
    return site


@pytest.fixture(autouse=True)
def fixed_code_version(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("nightshift.experiment.manifest.code_version", lambda: "test-code-version")


def test_plugin_metric_is_graded_stored_compared_and_reported(tmp_path: Path, prefect_server, fastpass_installed,
                                                               capsys) -> None:
    from nightshift.flows.nightly_eval import nightly_eval

    exp = tmp_path / "exp.yaml"
    exp.write_text(f"""
name: plugin-metric
suites: [builtin]
cases: {CASES}
variants:
  - {{name: strong, model: sim-strong}}
  - {{name: weak, model: sim-weak}}
seeds: [1, 2]
concurrency: 4
infra_retries: 0
model: {{simulator: {{latency_ms: 5}}}}
output_dir: out
metrics:
  - {{use: fast_pass, settings: {{limit_s: 30}}}}
  - {{use: files_outside_allowed, name: stray_files, settings: {{allowed: ['*.py', '*.sh']}}}}
  - time_to_pass
""")
    summary = nightly_eval(experiment_file=str(exp))
    run_dir = Path(summary["run_dir"])

    pins = RunManifest.read(run_dir / "manifest.json").metrics["builtin"]
    fast = next(p for p in pins if p["name"] == "fast_pass")
    assert fast["source"] == "entry point (nightshift-fastpass)" and fast["version"] == "nightshift-fastpass 0.3.1"
    assert fast["settings"] == {"limit_s": 30.0}
    assert [p["name"] for p in pins] == ["resolved", "progress", "speedup", "fast_pass", "stray_files",
                                          "time_to_pass"]

    parquet = run_dir / "results.parquet"
    schema = pq.read_schema(parquet)
    assert schema.field("score.fast_pass").metadata == {b"unit": b"fraction", b"higher_is_better": b"true"}
    rows = duckdb.connect().execute(f"""SELECT status, "score.fast_pass", "score.resolved", score,
        "score.stray_files", "score.time_to_pass" FROM '{parquet}'""").fetchall()
    assert len(rows) == 8
    for status, fast_pass, resolved, score, stray, seconds in rows:
        assert resolved == score and fast_pass in (0.0, 1.0) and fast_pass <= resolved  # graded, per trial
        assert stray is not None and stray >= 0
        assert (seconds is not None) == (status == "resolved")
    assert any(r[1] == 1.0 for r in rows)
    trial_json = next((run_dir / "results").glob("*.json"))
    assert "public tests took" in json.loads(trial_json.read_text())["score_messages"]["fast_pass"]

    assert summary["metric_verdicts"]["fast_pass"][0].startswith("fast pass: weak − strong = ")
    report = (run_dir / "report.md").read_text()
    assert "## Verdicts (fast pass; higher is better)" in report and "| strong | fast pass | higher |" in report
    assert "## Verdicts (stray files (files); lower is better)" in report

    capsys.readouterr()
    assert main(["compare", str(run_dir)]) == 0
    out = capsys.readouterr().out
    verdict = next(line for line in out.splitlines() if line.startswith("fast pass: weak − strong"))
    assert "→ " in verdict and verdict.split("→ ")[1] in ("within noise", "weak better", "weak worse")

    from nightshift.cli.plugins import plugin_rows

    assert ("metrics", "fast_pass", "entry point (nightshift-fastpass)", "nightshift-fastpass 0.3.1") in plugin_rows()
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "fast_pass" in out and "nightshift-fastpass 0.3.1" in out


def test_without_the_package_the_metric_name_is_refused_before_any_trial(tmp_path: Path) -> None:
    from nightshift.experiment.config import ExperimentError
    from nightshift.preflight import check_experiment

    exp = tmp_path / "exp.yaml"
    exp.write_text("name: x\nvariants: [{name: a, model: m}]\nmetrics: [{use: fast_pass}]\n")
    with pytest.raises(ExperimentError, match=r"field 'metrics.0.use': nightshift.metrics: no plugin named "
                                              r"'fast_pass'.*install a package"):
        check_experiment(exp)
