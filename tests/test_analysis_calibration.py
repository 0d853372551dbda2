"""Verdicts are calibrated: on generated Parquet with a known truth (per-case difficulty model), A/A
comparisons are called "better"/"worse" at most 7% of the time, and a planted 3-point difference at
5,000 trials is found at least 80% of the time.

Many independent experiments live in one Parquet file (variants ``A#r``/``B#r``), so each test is one
DuckDB pass plus vectorised NumPy: a few seconds in all. RNG seeds are fixed: the tests are deterministic.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from nightshift.analysis.paired import comparisons
from nightshift.analysis.simulate import write_simulated
from nightshift.analysis.source import connect

REPLICATES = 240
CASES, SEEDS = 500, 5  # × 2 variants = 5,000 trials per experiment
BASE = 0.5  # the hardest rate to detect a difference at: Bernoulli variance is largest


def run_replicates(path, replicates: int, bootstrap: bool = False) -> list:
    con, info = connect(path)
    pairs = [(f"A#{r}", f"B#{r}") for r in range(replicates)]
    return comparisons(con, pairs, info["files"], breakdowns=False, bootstrap=bootstrap)


def called(results: list, metric: str) -> float:
    chosen = [c for c in results if c.metric == metric]
    return sum(c.verdict != "within noise" for c in chosen) / len(chosen)


@pytest.fixture(scope="module")
def aa_results(tmp_path_factory):
    path = write_simulated(tmp_path_factory.mktemp("aa") / "aa.parquet", CASES, SEEDS, {"A": BASE, "B": BASE},
                           infra_rate=0.02, rng_seed=11, replicates=REPLICATES, trial_ids=False)
    return run_replicates(path, REPLICATES)


def test_aa_comparisons_are_rarely_called_real(aa_results):
    assert len([c for c in aa_results if c.metric == "pass_rate"]) >= 200
    assert called(aa_results, "pass_rate") <= 0.07
    assert called(aa_results, "progress") <= 0.07


def test_noise_floor_is_the_spread_of_aa_differences(aa_results):
    chosen = [c for c in aa_results if c.metric == "pass_rate"]
    spread = np.quantile([abs(c.diff) for c in chosen], 0.95)
    floor = np.mean([c.noise_floor for c in chosen])
    assert floor == pytest.approx(spread, rel=0.2)
    assert chosen and all(c.floor_source == "seeds" for c in chosen)


def test_aa_with_one_seed_uses_mcnemar_and_stays_calibrated(tmp_path):
    path = write_simulated(tmp_path / "aa1.parquet", 300, 1, {"A": 0.7, "B": 0.7}, rng_seed=5,
                           replicates=REPLICATES, trial_ids=False)
    results = run_replicates(path, REPLICATES)
    tests = {c.test for c in results if c.metric == "pass_rate"}
    assert tests and tests <= {"McNemar chi-square", "McNemar exact binomial"}
    assert results and all(c.noise_floor is None for c in results)
    assert called(results, "pass_rate") <= 0.07


def test_planted_three_points_at_5000_trials_is_found(tmp_path):
    path = write_simulated(tmp_path / "ab.parquet", CASES, SEEDS, {"A": BASE, "B": BASE + 0.03}, infra_rate=0.02,
                           rng_seed=23, replicates=REPLICATES, trial_ids=False)
    results = run_replicates(path, REPLICATES)
    found = [c for c in results if c.metric == "pass_rate" and c.verdict == f"{c.variant} better"]
    assert len(found) / REPLICATES >= 0.80
    wrong_way = [c for c in results if c.metric == "pass_rate" and c.verdict.endswith("worse")]
    assert not wrong_way


def test_bootstrap_interval_covers_the_true_difference(tmp_path):
    path = write_simulated(tmp_path / "cover.parquet", 200, 3, {"A": 0.4, "B": 0.45}, rng_seed=3, replicates=100,
                           trial_ids=False)
    results = [c for c in run_replicates(path, 100, bootstrap=True) if c.metric == "pass_rate"]
    coverage = np.mean([c.ci_low <= 0.05 <= c.ci_high for c in results])
    assert 0.88 <= coverage <= 0.99


def test_verdict_line_reads_like_the_issue(aa_results):
    pattern = (r"^B#\d+ − A#\d+ = [+-]\d+\.\d pts \[[+-]\d+\.\d, [+-]\d+\.\d\], p (=|<) \d\.\d{3}, "
               r"noise floor ±\d+\.\d → (within noise|B#\d+ better|B#\d+ worse)$")
    for c in aa_results[:20]:
        assert re.match(pattern, c.line), c.line
