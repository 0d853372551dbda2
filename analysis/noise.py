"""The noise floor: how far apart two identical configurations land by chance, measured from A/A repeats.

Two kinds of repeat are measured. Seeds: every case run with several seeds under one arm is an A/A
repeat of itself, and the spread between its seeds says how much a comparison of this size moves
when only the seeds change. Runs: the same variant with the same pins in two runs is an A/A pair,
and the difference between them includes whatever else changes from run to run.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import duckdb
import numpy as np

from nightshift.analysis.source import one_row
from nightshift.analysis.stats import Z95

MEASURED_SHARE = 0.5  # the seed floor is reported only when at least half the cases have ≥ 2 seeds in both arms


def seed_floor(var_a: np.ndarray, n_a: np.ndarray, var_b: np.ndarray, n_b: np.ndarray) -> float | None:
    """95% half-width of the B − A difference that reseeding alone produces, at this comparison's size.

    Per case the A/A variance of the difference of means is s²_A/k_A + s²_B/k_B, with s² the sample
    variance between the case's seeds; averaged over the cases where both arms have ≥ 2 seeds and
    divided by the number of cases. None when too few cases have repeats to measure it.
    """
    n = var_a.size
    ok = (n_a >= 2) & (n_b >= 2) & np.isfinite(var_a) & np.isfinite(var_b)
    if n == 0 or ok.sum() < max(2, MEASURED_SHARE * n):
        return None
    per_case = (var_a[ok] / n_a[ok] + var_b[ok] / n_b[ok]).mean()
    return float(Z95 * math.sqrt(per_case / n))


def self_floor(var: np.ndarray, n: np.ndarray) -> float | None:
    """Seed noise floor of one arm against an identical copy of itself (same cases, same seed count)."""
    return seed_floor(var, n, var, n)


def run_floor(d: np.ndarray) -> float:
    """95% half-width from an A/A pair of runs: Z95 · sqrt(Σ d²) / n over the cases both ran.

    Uncentred on purpose: a systematic shift between the two runs counts as noise, not as signal.
    """
    return float(Z95 * math.sqrt((d**2).sum()) / d.size) if d.size else math.nan


def _variant_pins(parquet: str) -> dict[str, str]:
    """variant -> canonical JSON of its pins from the manifest.json beside the Parquet file, if any."""
    manifest = Path(parquet).with_name("manifest.json")
    if not manifest.is_file():
        return {}
    data = json.loads(manifest.read_text())
    shared = {k: data.get(k) for k in ("suite_hash", "cases", "sandbox_identity", "endpoint", "grader_version")}
    return {name: json.dumps([spec, data.get("models", {}).get(name), shared], sort_keys=True, default=str)
            for name, spec in data.get("variants", {}).items()}


def aa_run_pairs(con: duckdb.DuckDBPyConnection, files: list[str]) -> list[tuple[str, str]]:
    """Pairs of arms that are the same variant, with the same pins, in two different runs.

    Pins come from each run's manifest.json (variant settings, model version, suite, sandbox); without
    a manifest the model version in the rows must match.
    """
    if one_row(con, "SELECT count(DISTINCT run_id) FROM trials")[0] < 2:
        return []
    pins: dict[str, dict[str, str]] = {}
    for f in files:
        run_ids = [r[0] for r in con.execute("SELECT DISTINCT run_id FROM read_parquet(?)", [f]).fetchall()]
        for run_id in run_ids:
            pins[run_id] = _variant_pins(f)
    arms = con.execute("SELECT arm, variant, run_id, any_value(model_version) FROM trials "
                       "GROUP BY arm, variant, run_id ORDER BY arm").fetchall()
    pairs = []
    for i, (arm_a, var_a, run_a, ver_a) in enumerate(arms):
        for arm_b, var_b, run_b, ver_b in arms[i + 1:]:
            if var_a != var_b or run_a == run_b or ver_a != ver_b:
                continue
            pa, pb = pins.get(run_a, {}).get(var_a), pins.get(run_b, {}).get(var_b)
            if pa == pb:
                pairs.append((arm_a, arm_b))
    return pairs
