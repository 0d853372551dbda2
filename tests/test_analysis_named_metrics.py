"""Named metrics (score.<name> columns) get what the pass rate gets: per-arm intervals, paired differences,
noise floor and a verdict that knows which way is better — in the Parquet file, compare and the report."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from nightshift.analysis import analyse
from nightshift.analysis.report import write_report
from nightshift.analysis.source import connect
from nightshift.cli import main
from nightshift.models import TrialResult
from nightshift.tasks.results import write_parquet

COLUMNS = {"resolved": {"unit": "fraction", "higher_is_better": "true"},
           "progress": {"unit": "fraction", "higher_is_better": "true"},
           "time_to_pass": {"unit": "s", "higher_is_better": "false"},
           "bad_files": {"unit": "files", "higher_is_better": "false"}}


def row(case: int, variant: str, seed: int, passed: bool, seconds: float | None, bad: float,
        status: str | None = None) -> TrialResult:
    status = status or ("resolved" if passed else "failed")
    infra = status == "infra_error"
    scores = {} if infra else {"resolved": float(passed), "progress": float(passed), "time_to_pass": seconds,
                               "bad_files": bad}
    return TrialResult(trial_id=f"c{case}-{variant}-{seed}", run_id="run-1", case_id=f"c{case}", suite="s",
                       domain="d" if case % 2 else "e", split="public", variant=variant, model="m",
                       model_version="m1", seed=seed, status=status, score=float(passed), progress=float(passed),
                       scores=scores, score_messages={"bad_files": "x.py"} if bad else {})


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """40 cases × 2 seeds: B passes as often as A, but twice as fast and touches no file it should not."""
    rows = []
    for case in range(40):
        for seed in (1, 2):
            passed = case % 4 != 0 and (case, seed) != (5, 2)
            rows.append(row(case, "A", seed, passed, 20.0 + case % 5 + seed if passed else None, 1.0 + case % 2))
            rows.append(row(case, "B", seed, passed, 10.0 + case % 5 - seed / 2 if passed else None, 0.0))
    rows.append(row(99, "B", 1, False, None, 0, status="infra_error"))
    out = tmp_path / "run"
    write_parquet(rows, out / "results.parquet", COLUMNS)
    return out


def test_parquet_has_one_nullable_column_per_metric_with_its_unit(run_dir: Path) -> None:
    schema = pq.read_schema(run_dir / "results.parquet")
    assert [n for n in schema.names if n.startswith("score.")] == [f"score.{n}" for n in COLUMNS]
    assert schema.field("score.time_to_pass").metadata == {b"unit": b"s", b"higher_is_better": b"false"}
    assert "scores" not in schema.names and "score_messages" not in schema.names
    nulls = duckdb.connect().execute(f"""SELECT count(*) FILTER (WHERE "score.time_to_pass" IS NULL),
        count(*) FILTER (WHERE status <> 'resolved'), count(*) FILTER (WHERE "score.bad_files" IS NULL)
        FROM '{run_dir / "results.parquet"}'""").fetchone()
    assert nulls[0] == nulls[1]  # a trial that did not pass has no time to pass
    assert nulls[2] == 1  # only the infra error has no value


def test_named_metrics_are_discovered_and_compared_in_their_direction(run_dir: Path) -> None:
    _, info = connect(run_dir / "results.parquet")
    assert [m["name"] for m in info["metrics"]] == ["time_to_pass", "bad_files"]  # resolved/progress are headline
    result = analyse([run_dir], baseline="A")
    by_metric = {c.metric: c for c in result.comparisons if c.scope == "all"}
    assert set(by_metric) == {"pass_rate", "progress", "time_to_pass", "bad_files"}
    assert by_metric["pass_rate"].verdict == "within noise" and by_metric["pass_rate"].diff == 0
    fast = by_metric["time_to_pass"]
    assert fast.diff < -5 and fast.ci_high < 0 and fast.p < 0.001
    assert fast.verdict == "B better"  # lower is better for a time
    assert fast.noise_floor is not None and fast.unit == "s"  # two seeds: the seed floor is measured
    assert "time to pass: B − A" in fast.line and " s [" in fast.line
    assert by_metric["bad_files"].verdict == "B better" and by_metric["bad_files"].diff == pytest.approx(-1.5)
    a = next(s for s in result.scores if s["arm"] == "A")
    assert a["time_to_pass_n"] == 30 * 2 - 1
    assert a["time_to_pass_low"] < a["time_to_pass"] < a["time_to_pass_high"]
    assert {c.metric for c in result.comparisons if c.scope == "domain=d"} >= {"time_to_pass", "bad_files"}


def test_a_slower_variant_is_worse_not_better(run_dir: Path) -> None:
    result = analyse([run_dir], baseline="B")  # A − B: A is the slower one
    fast = next(c for c in result.comparisons if c.metric == "time_to_pass" and c.scope == "all")
    assert fast.diff > 0 and fast.verdict == "A worse"


def test_report_and_compare_show_each_metric_with_its_verdict(run_dir: Path, capsys) -> None:
    md, page = write_report(analyse([run_dir], baseline="A"), run_dir, "t")
    text = md.read_text()
    assert "## Verdicts (time to pass (s); lower is better)" in text
    assert "## Named metrics" in text and "| A | bad files (files) | lower |" in text
    assert "time to pass: B − A" in page.read_text() and "→ B better" in text
    html = page.read_text()
    for title in ("time to pass (s) per arm", "Paired differences (time to pass (s))", "bad files (files) per arm"):
        assert f"<img alt='{title}' src='data:image/png;base64," in html, title  # each named metric is drawn
    assert main(["compare", str(run_dir), "--baseline", "A"]) == 0
    out = capsys.readouterr().out
    assert "Named metrics by arm" in out
    assert any(line.startswith("time to pass: B − A") and line.endswith("→ B better") for line in out.splitlines())
    assert any(line.startswith("bad files: B − A") for line in out.splitlines())


def test_a_parquet_without_named_metrics_reads_as_before(tmp_path: Path) -> None:
    plain = [row(c, v, 1, c % 2 == 0, None, 0) for c in range(6) for v in "AB"]
    for r in plain:
        r.scores = {}
    write_parquet(plain, tmp_path / "results.parquet")
    result = analyse([tmp_path])
    assert result.info["metrics"] == []
    assert {c.metric for c in result.comparisons} == {"pass_rate", "progress"}
