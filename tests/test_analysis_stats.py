"""The statistical building blocks agree with textbook values and with brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nightshift.analysis.simulate import skill_for, true_pass_rate
from nightshift.analysis.stats import Z95, binomial_two_sided, bootstrap_ci, chi2_1_sf, mdd, paired_test, seeds_needed


def test_exact_mcnemar_matches_the_binomial_tail():
    # b = 1, c = 9: P(X <= 1) for Bin(10, 1/2) = 11/1024, two-sided 22/1024
    assert binomial_two_sided(1, 9) == pytest.approx(22 / 1024)
    assert binomial_two_sided(5, 5) == 1.0


def test_mcnemar_switches_to_chi_square_at_25_discordant_pairs():
    small = paired_test(np.array([1.0] * 15 + [-1.0] * 5 + [0.0] * 50), single_binary=True)
    large = paired_test(np.array([1.0] * 30 + [-1.0] * 10), single_binary=True)
    assert small.method == "McNemar exact binomial"
    assert large.method == "McNemar chi-square"
    assert large.statistic == pytest.approx((30 - 10) ** 2 / 40)
    assert large.p == pytest.approx(chi2_1_sf(10.0))


def test_chi_square_tail_at_the_5_percent_point():
    assert chi2_1_sf(Z95**2) == pytest.approx(0.05, abs=1e-6)


def test_clustered_mcnemar_reduces_to_mcnemar_with_one_pair_per_case():
    x = np.array([1.0] * 30 + [-1.0] * 10 + [0.0] * 60)
    clustered = paired_test(x, single_binary=False)
    assert clustered.statistic == pytest.approx(paired_test(x, single_binary=True).statistic)


def test_sign_flip_p_is_exact_for_few_cases():
    x = np.array([0.5, 0.5, 0.5, 0.5, 0.5])  # all five agree: 2 of 32 sign patterns are as extreme
    assert paired_test(x, single_binary=False).p == pytest.approx(2 / 32)


def test_bootstrap_paths_agree_with_resampling_indices():
    rng = np.random.default_rng(0)
    for n in (400, 8_000):  # few distinct values, then many (index path at 400, grouped path at 8,000)
        few = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], size=n, p=[0.1, 0.15, 0.4, 0.2, 0.15])
        many = few + rng.normal(0, 0.05, size=n)
        for d in (few, many):
            brute = np.quantile(d[rng.integers(0, n, size=(2000, n))].mean(axis=1), [0.025, 0.975])
            low, high = bootstrap_ci(d)
            assert (high - low) == pytest.approx(brute[1] - brute[0], rel=0.08)
            assert (low + high) / 2 == pytest.approx(d.mean(), abs=0.1 * (high - low))


def test_mdd_is_2_8_standard_errors():
    assert mdd(1.0) == pytest.approx(1.959964 + 0.841621, abs=1e-5)


def test_seeds_needed_shrinks_seed_noise_only():
    # 500 cases, per-seed variance 0.25, no disagreement between cases: 3 pts needs k seeds with
    # 2.8016² · 0.25 / (k · 500) <= 0.03²  ->  k >= 4.36
    assert seeds_needed(0.03, 0.0, 0.25, 500) == 5
    # cases that disagree by more than 3 pts allows (variance 0.06 > 0.03² · 500 / 2.8016²): seeds cannot help
    assert seeds_needed(0.03, 0.06, 0.25, 500) is None


def test_simulated_rates_are_the_true_rates():
    for rate in (0.2, 0.5, 0.83):
        assert true_pass_rate(skill_for(rate)) == pytest.approx(rate, abs=1e-9)
    rng = np.random.default_rng(1)
    d = rng.random(400_000)
    s = skill_for(0.5)
    assert np.mean(1 / (1 + np.exp(-8 * (s - d)))) == pytest.approx(0.5, abs=0.002)
    assert not math.isnan(s)
