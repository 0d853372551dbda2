"""Result rows with a known truth, for calibration tests and benchmarks: a model of per-case difficulty.

The same model as the simulator (simulator/policy.py): each case has a difficulty d ~ U[0, 1) and a
variant of skill s solves it with probability logistic(8 (s - d)), independently per seed. So the true
pass rate of a variant over the population of cases is known exactly, and a planted difference is a
difference in that true rate. Rows follow the TrialResult schema (the columns the analysis reads).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

STEEPNESS = 8.0  # as simulator.policy.STEEPNESS
DOMAINS = ("python-bugfix", "shell-text", "data-transform", "sql", "config", "refactor", "numeric", "web", "ops")
STATUSES = ("resolved", "failed", "step_limit", "timeout", "agent_error", "infra_error")
FAILURE_SHARES = (0.6, 0.2, 0.1, 0.1)  # how an unsolved trial ends: failed, step_limit, timeout, agent_error


def true_pass_rate(skill: float) -> float:
    """Mean of logistic(8 (skill - d)) over d ~ U[0, 1): the variant's pass rate over all cases."""
    k = STEEPNESS
    return (math.log1p(math.exp(k * skill)) - math.log1p(math.exp(k * (skill - 1)))) / k


def skill_for(rate: float) -> float:
    """The skill whose true pass rate is ``rate`` (bisection; the rate rises with skill)."""
    low, high = -2.0, 3.0
    for _ in range(80):
        mid = (low + high) / 2
        low, high = (mid, high) if true_pass_rate(mid) < rate else (low, mid)
    return (low + high) / 2


def simulate_trials(cases: int, seeds: int, rates: dict[str, float], infra_rate: float = 0.01,
                    rng_seed: int = 0, run_id: str = "sim", replicates: int = 1, trial_ids: bool = True
                    ) -> pa.Table:
    """Trial rows: every case × variant × seed, with true pass rates ``rates`` (variant -> rate).

    With ``replicates`` > 1 each replicate draws fresh cases and its variants are named ``NAME#r``,
    so one file holds many independent experiments. ``trial_ids=False`` skips the one costly column.
    """
    rng = np.random.default_rng(rng_seed)
    names = list(rates)
    skills = np.array([skill_for(rates[v]) for v in names])
    r, c, v, s = np.meshgrid(np.arange(replicates), np.arange(cases), np.arange(len(names)), np.arange(seeds),
                             indexing="ij")
    r, c, v, s = r.ravel(), c.ravel(), v.ravel(), s.ravel()
    difficulty = rng.random((replicates, cases))[r, c]
    p = 1 / (1 + np.exp(-STEEPNESS * (skills[v] - difficulty)))
    n = p.size
    solved = rng.random(n) < p
    infra = rng.random(n) < infra_rate
    status = np.where(solved, 0, rng.choice([1, 2, 3, 4], size=n, p=FAILURE_SHARES))
    status = _labels(list(STATUSES), np.where(infra, len(STATUSES) - 1, status))
    score = (solved & ~infra).astype(float)
    f2p_total = 1 + (c % 4)
    p2p_total = c % 3
    f2p_passed = np.where(score > 0, f2p_total, rng.binomial(f2p_total, 0.5 * p))
    p2p_passed = np.where(score > 0, p2p_total, rng.binomial(p2p_total, 0.9))
    steps = rng.integers(3, 21, n)
    input_tokens = (steps * rng.lognormal(6.5, 0.4, n)).astype(np.int64)
    output_tokens = (steps * rng.lognormal(4.5, 0.5, n)).astype(np.int64)
    duration = steps * rng.lognormal(1.5, 0.5, n)
    case_ids = _labels([f"case-{i:06d}" for i in range(replicates * cases)], r * cases + c)
    labels = names if replicates == 1 else [f"{name}#{i}" for i in range(replicates) for name in names]
    variant = _labels(labels, v if replicates == 1 else r * len(names) + v)
    columns = {
        "run_id": _labels([run_id], np.zeros(n, dtype=np.int64)), "case_id": case_ids,
        "suite": _labels(["simulated"], np.zeros(n, dtype=np.int64)),
        "domain": _labels(list(DOMAINS), c % len(DOMAINS)), "split": _labels(["public", "heldout"], c % 5 == 4),
        "variant": variant, "model": variant, "model_version": variant, "seed": s.astype(np.int64),
        "status": status, "score": score, "f2p_passed": f2p_passed, "f2p_total": f2p_total,
        "p2p_passed": p2p_passed, "p2p_total": p2p_total, "steps": steps, "model_calls": steps,
        "input_tokens": input_tokens, "output_tokens": output_tokens, "duration_s": duration,
    }
    if trial_ids:
        columns = {"trial_id": pc.binary_join_element_wise(
            pc.cast(case_ids, pa.string()), pc.cast(variant, pa.string()), pa.array(s.astype(str)), "/"), **columns}
    return pa.table({k: val if isinstance(val, pa.Array) else pa.array(val) for k, val in columns.items()})


def _labels(values: list[str], index: np.ndarray) -> pa.Array:
    """A dictionary-encoded string column: cheap to build for millions of rows, read as plain strings."""
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(index, dtype=np.int32)), pa.array(values))


def write_simulated(path: Path, *args: object, **kwargs: object) -> Path:
    """``simulate_trials`` written as Parquet to ``path``; returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(simulate_trials(*args, **kwargs), path)  # type: ignore[arg-type]
    return path
