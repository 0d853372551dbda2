"""Per-arm scores from DuckDB match a hand computation; infra errors are counted, never scored; columns a
newer schema adds (progress, cost) are used when present and tolerated when absent."""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nightshift.analysis import analyse
from nightshift.analysis.paired import as_dicts
from nightshift.analysis.scores import histogram
from nightshift.analysis.source import AnalysisError, connect


def rows_table(rows: list[dict]) -> pa.Table:
    base = {"run_id": "r1", "domain": "d", "split": "public", "f2p_passed": 0, "f2p_total": 2, "p2p_passed": 1,
            "p2p_total": 1, "input_tokens": 100, "output_tokens": 10, "duration_s": 1.0, "model_version": "m"}
    return pa.Table.from_pylist([{**base, **r} for r in rows])


def trial(case: str, variant: str, seed: int, score: float, status: str | None = None, **extra) -> dict:
    return {"case_id": case, "variant": variant, "seed": seed, "score": score,
            "status": status or ("resolved" if score else "failed"), **extra}


def scores(parquet) -> list[dict]:
    return analyse([parquet], breakdowns=False).scores


def headline(parquet, baseline: str) -> list[dict]:
    return as_dicts(analyse([parquet], baseline=baseline, breakdowns=False).headline())


@pytest.fixture
def small_run(tmp_path):
    rows = [trial("c1", "A", 1, 1), trial("c1", "A", 2, 1), trial("c2", "A", 1, 0), trial("c2", "A", 2, 1),
            trial("c3", "A", 1, 0), trial("c3", "A", 2, 0, "infra_error"),
            trial("c1", "B", 1, 1), trial("c1", "B", 2, 1), trial("c2", "B", 1, 1), trial("c2", "B", 2, 1),
            trial("c3", "B", 1, 1), trial("c3", "B", 2, 0)]
    path = tmp_path / "results.parquet"
    pq.write_table(rows_table(rows), path)
    return path


def test_pass_rate_and_clustered_se_match_the_cr1_formula(small_run):
    a = next(r for r in scores(small_run) if r["variant"] == "A")
    y = {"c1": [1, 1], "c2": [0, 1], "c3": [0]}  # the infra error is not a trial of A's score
    flat = [v for vs in y.values() for v in vs]
    mean = sum(flat) / len(flat)
    g = len(y)
    cr1 = math.sqrt(g / (g - 1) * sum((sum(v) - len(v) * mean) ** 2 for v in y.values()) / len(flat) ** 2)
    assert (a["trials"], a["infra_errors"], a["cases"]) == (5, 1, 3)
    assert a["pass_rate"] == pytest.approx(mean)
    assert a["pass_rate_se"] == pytest.approx(cr1)
    assert a["pass_rate_low"] == pytest.approx(max(0, mean - 1.959964 * cr1), abs=1e-6)


def test_progress_proxy_is_the_public_test_fraction_when_no_column(small_run):
    con, info = connect(small_run)
    assert info["progress"].startswith("proxy")
    failed = con.execute("SELECT progress FROM trials WHERE score = 0 AND NOT infra LIMIT 1").fetchone()[0]
    assert failed == pytest.approx(1 / 3)  # 0 of 2 fail-to-pass + 1 of 1 pass-to-pass


def test_progress_and_cost_columns_are_used_when_present(tmp_path):
    rows = [trial("c1", "A", 1, 0, progress=0.25, cost_usd=0.01),
            trial("c2", "A", 1, 1, progress=None, cost_usd=0.03, f2p_passed=2)]
    path = tmp_path / "results.parquet"
    pq.write_table(rows_table(rows), path)
    (score,) = scores(path)
    assert score["progress"] == pytest.approx((0.25 + 1.0) / 2)  # a NULL progress falls back to the proxy
    assert score["cost"] == pytest.approx(0.02)


def test_missing_cost_column_reads_as_no_cost(small_run):
    rows = scores(small_run)
    assert rows and all(r["cost"] is None for r in rows)


def test_paired_difference_is_over_case_means(small_run):
    (d,) = headline(small_run, baseline="A")
    # per case B − A: c1 0, c2 +0.5, c3 +0.5 (A's c3 has one scored trial)
    assert d["diff"] == pytest.approx(np.mean([0, 0.5, 0.5]))
    assert d["se"] == pytest.approx(np.std([0, 0.5, 0.5], ddof=1) / math.sqrt(3))
    assert d["verdict"] == "within noise"
    assert d["line"].startswith("B − A = +33.3 pts [")


def test_infra_errors_are_counted_in_statuses(small_run):
    result = analyse([small_run])
    a = next(s for s in result.statuses if s["arm"] == "A")
    assert (a["total"], a["infra_error"], a["resolved"], a["failed"]) == (6, 1, 3, 2)


def test_same_variant_from_two_runs_becomes_two_arms(tmp_path):
    for run in ("old", "new"):
        rows = [trial(f"c{i}", "A", s, float((i + s + (run == "new")) % 2)) for i in range(30) for s in (1, 2)]
        pq.write_table(rows_table([{**r, "run_id": run} for r in rows]), tmp_path / f"{run}.parquet")
    result = analyse([tmp_path / "new.parquet"], vs=tmp_path / "old.parquet")
    assert [(c.baseline, c.variant) for c in result.headline()] == [("A@old", "A@new")]
    assert result.aa_pairs == [("A@new", "A@old")]  # same variant, same model version, no manifest: an A/A pair


def test_histogram_bins_every_scored_trial(small_run):
    con, _ = connect(small_run)
    hist = histogram(con, "tokens", bins=5)
    assert sum(sum(c) for c in hist["counts"].values()) == 11
    assert len(hist["edges"]) == 6


def test_a_folder_without_results_names_the_fix(tmp_path):
    with pytest.raises(AnalysisError, match="pass a run folder or its results.parquet"):
        analyse([tmp_path])


def test_columns_left_at_their_zero_default_are_not_read_as_measurements(tmp_path):
    rows = [trial("c1", "A", 1, 1, progress=0.0, cost_usd=0.0, f2p_passed=2),
            trial("c2", "A", 1, 0, progress=0.0, cost_usd=0.0)]
    path = tmp_path / "results.parquet"
    pq.write_table(rows_table(rows), path)
    result = analyse([path])
    (score,) = result.scores
    assert score["progress"] == pytest.approx((1.0 + 1 / 3) / 2)  # the proxy, not the unfilled 0.0
    assert score["cost"] is None
    assert len(result.info["notes"]) == 2


def test_a_case_with_only_infra_errors_in_one_arm_is_not_paired(tmp_path):
    rows = [trial(f"c{i}", v, 1, float(i % 2)) for i in range(10) for v in "AB"]
    rows.append(trial("c10", "A", 1, 1))
    rows.append(trial("c10", "B", 1, 0, "infra_error"))
    path = tmp_path / "results.parquet"
    pq.write_table(rows_table(rows), path)
    (d,) = headline(path, baseline="A")
    assert d["cases"] == 10 and d["diff"] == 0.0
    assert d["test"] == "no discordant cases"
