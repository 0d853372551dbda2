"""The statistics behind every interval, p-value and power figure: pure functions over NumPy arrays.

Nothing here reads files. The unit of analysis is the case: callers pass one value per case (for a
comparison, the case's mean under B minus its mean under A), because seeds of one case are not
independent evidence. Methods and references are in docs/ANALYSIS.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

ALPHA = 0.05
POWER = 0.80
BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_GROUPS = 128  # distinct per-case differences resampled as they are; above, grouped (large n only)
INDEX_BOOTSTRAP_CASES = 2000  # up to this many cases, many distinct values are resampled by index
EXACT_BELOW = 25  # discordant pairs (or non-zero cases) below which a p-value is exact, not asymptotic

_N = NormalDist()


def z(p: float) -> float:
    """The standard normal quantile: z(0.975) = 1.96."""
    return _N.inv_cdf(p)


Z95 = z(1 - ALPHA / 2)


def chi2_1_sf(stat: float) -> float:
    """Upper tail of the chi-square distribution with one degree of freedom."""
    return math.erfc(math.sqrt(max(stat, 0.0) / 2))


def binomial_two_sided(b: int, c: int) -> float:
    """Exact McNemar p-value: two-sided binomial test of b successes in b + c trials at one half."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


@dataclass(frozen=True)
class PairedTest:
    """A paired test's p-value, its statistic and the name of the method that produced it."""

    p: float
    statistic: float
    method: str


def paired_test(x: np.ndarray, single_binary: bool, rng_seed: int = 0) -> PairedTest:
    """Test that per-case differences ``x`` are centred on zero.

    ``x`` holds, per case, (pairs in the case) × (mean of B − mean of A). With one 0/1 trial per arm
    and case this is McNemar's test: exact binomial below 25 discordant pairs, chi-square above. With
    several seeds it is the clustered McNemar statistic of Durkalski et al. (2003),
    (Σ x)² / Σ x², referred to chi-square(1), or to its exact sign-flip distribution when fewer than
    25 cases differ.
    """
    x = np.asarray(x, dtype=float)
    nonzero = x[np.abs(x) > 1e-12]
    if nonzero.size == 0:
        return PairedTest(1.0, 0.0, "no discordant cases")
    if single_binary:
        b, c = int((nonzero > 0).sum()), int((nonzero < 0).sum())
        stat = (b - c) ** 2 / (b + c)
        if b + c < EXACT_BELOW:
            return PairedTest(binomial_two_sided(b, c), stat, "McNemar exact binomial")
        return PairedTest(chi2_1_sf(stat), stat, "McNemar chi-square")
    stat = float(nonzero.sum() ** 2 / (nonzero**2).sum())
    if nonzero.size < EXACT_BELOW:
        return PairedTest(_sign_flip_p(nonzero, rng_seed), stat, "clustered McNemar, exact sign-flip")
    return PairedTest(chi2_1_sf(stat), stat, "clustered McNemar chi-square")


def _sign_flip_p(x: np.ndarray, rng_seed: int) -> float:
    """Share of sign assignments whose |Σ ±x| reaches the observed one (all of them up to 2^16)."""
    observed = abs(x.sum()) - 1e-9
    if x.size <= 16:
        signs = 1 - 2 * ((np.arange(2**x.size)[:, None] >> np.arange(x.size)) & 1)
    else:
        signs = np.random.default_rng(rng_seed).choice([-1, 1], size=(20000, x.size))
    return float((np.abs(signs @ x) >= observed).mean())


def bootstrap_ci(d: np.ndarray, resamples: int = BOOTSTRAP_RESAMPLES, rng_seed: int = 0,
                 level: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``d``, resampling cases with replacement.

    With few distinct values (0/1 outcomes, a few seeds) a resample is drawn as multinomial counts over
    those values: the same distribution as drawing case indices, much faster. With many distinct
    values, up to ``INDEX_BOOTSTRAP_CASES`` cases draw indices; beyond that (where the mean is close
    to normal anyway) the sorted values are grouped into ``BOOTSTRAP_GROUPS`` equal-count groups
    represented by their means: the mean is kept exactly and over 99% of the spread (docs/ANALYSIS.md).
    """
    d = np.asarray(d, dtype=float)
    n = d.size
    if n == 0:
        return math.nan, math.nan
    rng = np.random.default_rng(rng_seed)
    values, counts = np.unique(d, return_counts=True)
    if values.size <= BOOTSTRAP_GROUPS:
        means = rng.multinomial(n, counts / n, size=resamples) @ values / n
    elif n <= INDEX_BOOTSTRAP_CASES:
        means = d[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    else:
        groups = np.array_split(np.sort(d), BOOTSTRAP_GROUPS)
        values = np.array([g.mean() for g in groups])
        counts = np.array([g.size for g in groups])
        means = rng.multinomial(n, counts / n, size=resamples) @ values / n
    tail = (1 - level) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


def mdd(se: float, alpha: float = ALPHA, power: float = POWER) -> float:
    """Minimum detectable difference: the true difference a two-sided test at ``alpha`` finds with ``power``."""
    return (z(1 - alpha / 2) + z(power)) * se


def seeds_needed(delta: float, var_between: float, var_seed: float, cases: int, alpha: float = ALPHA,
                 power: float = POWER, most: int = 1000) -> int | None:
    """Seeds per case for a paired comparison to detect ``delta`` with ``power``; None if seeds cannot.

    The variance of one case's difference with k seeds is ``var_between + var_seed / k``: seeds shrink
    only the second part, so when the cases themselves disagree (``var_between``) more cases, not
    more seeds, are needed.
    """
    if cases < 2 or delta <= 0:
        return None
    need = (delta / (z(1 - alpha / 2) + z(power))) ** 2 * cases  # largest allowed per-case variance
    if var_between >= need:
        return None
    if var_seed <= 0:
        return 1
    k = math.ceil(var_seed / (need - var_between))
    return max(1, k) if k <= most else None
