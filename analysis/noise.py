"""The noise floor: how far apart two identical configurations land by chance, measured from A/A repeats.

Two kinds of repeat are measured. Seeds: every case run with several seeds under one arm is an A/A
repeat of itself, and the spread between its seeds says how much a comparison of this size moves
when only the seeds change. Runs: the same variant with the same pins in two runs is an A/A pair,
and the difference between them includes whatever else changes from run to run.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import duckdb
import numpy as np

from nightshift.analysis.source import one_row
from nightshift.analysis.stats import Z95
from nightshift.experiment.comparability import PinDifference, harness_differences

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


def why_unmeasured(n_a: np.ndarray, n_b: np.ndarray) -> str:
    """Why ``seed_floor`` gave None, in the words a person can act on (more seeds, or more cases with them)."""
    n = int(n_a.size)
    repeated = int(((n_a >= 2) & (n_b >= 2)).sum())
    if n == 0:
        return "no case scored in both arms"
    if repeated == 0:
        return "one seed per case: give seeds: [1, 2, ...]"
    need = max(2, math.ceil(MEASURED_SHARE * n))
    if n < 2:
        return "one case: the floor needs ≥ 2 cases with ≥ 2 seeds in both arms; add cases"
    return f"{repeated} of {n} cases have ≥ 2 seeds in both arms; the floor needs {need}"


def self_floor(var: np.ndarray, n: np.ndarray) -> float | None:
    """Seed noise floor of one arm against an identical copy of itself (same cases, same seed count)."""
    return seed_floor(var, n, var, n)


def run_floor(d: np.ndarray) -> float:
    """95% half-width from an A/A pair of runs: Z95 · sqrt(Σ d²) / n over the cases both ran.

    Uncentred on purpose: a systematic shift between the two runs counts as noise, not as signal.
    """
    return float(Z95 * math.sqrt((d**2).sum()) / d.size) if d.size else math.nan


# every pin of a run that could move a variant's outcomes, beside the variant's own settings, model and harness;
# not the seeds (a reseed is the noise measured) nor the hidden-test seed (new every night by design)
RUN_PINS = ("suite_hash", "cases", "sandbox_identity", "sandbox_limits", "endpoint", "grader_version", "metrics")


@dataclass(frozen=True)
class HarnessChange:
    """A variant whose harness identity differs between two runs: what their comparison measures, not noise."""

    variant: str
    before: str  # the arm in the earlier run (the first one named)
    after: str
    changes: tuple[PinDifference, ...]

    def line(self) -> str:
        what = "; ".join(f"{d.field.split('.', 1)[1] + ' ' if '.' in d.field else ''}{d.a} → {d.b}"
                         for d in self.changes)
        return (f"{self.variant}: harness changed {what} ({self.before} → {self.after}): this is the difference "
                "compared, not noise")


def _manifest(parquet: str) -> dict:
    """The manifest.json beside a Parquet file, or {} for rows without one."""
    path = Path(parquet).with_name("manifest.json")
    return json.loads(path.read_text()) if path.is_file() else {}


def _variant_pins(manifest: dict) -> dict[str, str]:
    """variant -> canonical JSON of every pin it ran under: its settings, model version, harness identity and
    the run's pins (RUN_PINS)."""
    shared = {k: manifest.get(k) for k in RUN_PINS}
    models, harnesses = manifest.get("models", {}), manifest.get("harnesses", {})
    return {name: json.dumps([spec, models.get(name), harnesses.get(name), shared], sort_keys=True, default=str)
            for name, spec in manifest.get("variants", {}).items()}


def _arms_by_run(con: duckdb.DuckDBPyConnection, files: list[str]) -> tuple[list[tuple], dict[str, dict]]:
    """(arm, variant, run_id, model_version) in the order the runs were named, and each run's manifest."""
    manifests: dict[str, dict] = {}
    order: dict[str, int] = {}
    for f in files:
        for (run_id,) in con.execute("SELECT DISTINCT run_id FROM read_parquet(?)", [f]).fetchall():
            manifests[run_id] = _manifest(f)
            order.setdefault(run_id, len(order))
    arms = con.execute("SELECT arm, variant, run_id, any_value(model_version) FROM trials "
                       "GROUP BY arm, variant, run_id ORDER BY arm").fetchall()
    return sorted(arms, key=lambda r: (order.get(r[2], len(order)), r[0])), manifests


def aa_run_pairs(con: duckdb.DuckDBPyConnection, files: list[str]) -> list[tuple[str, str]]:
    """Pairs of arms that are the same variant, with every pin equal, in two different runs.

    Pins come from each run's manifest.json (variant settings, model version, harness identity, suite,
    sandbox, endpoint, grader, metrics); without a manifest the model version in the rows must match.
    """
    if one_row(con, "SELECT count(DISTINCT run_id) FROM trials")[0] < 2:
        return []
    arms, manifests = _arms_by_run(con, files)
    pins = {run_id: _variant_pins(m) for run_id, m in manifests.items()}
    pairs = []
    for i, (arm_a, var_a, run_a, ver_a) in enumerate(arms):
        for arm_b, var_b, run_b, ver_b in arms[i + 1:]:
            if var_a != var_b or run_a == run_b or ver_a != ver_b:
                continue
            if pins.get(run_a, {}).get(var_a) == pins.get(run_b, {}).get(var_b):
                pairs.append(tuple(sorted((arm_a, arm_b))))
    return pairs


def harness_changes(con: duckdb.DuckDBPyConnection, files: list[str]) -> list[HarnessChange]:
    """Every variant whose harness identity (manifest.json ``harnesses``) differs between two of these runs,
    earlier run first: the same differences the comparability guard notes."""
    if one_row(con, "SELECT count(DISTINCT run_id) FROM trials")[0] < 2:
        return []
    arms, manifests = _arms_by_run(con, files)
    found = []
    for i, (arm_a, var_a, run_a, _) in enumerate(arms):
        for arm_b, var_b, run_b, _ in arms[i + 1:]:
            if var_a != var_b or run_a == run_b or not manifests.get(run_a) or not manifests.get(run_b):
                continue
            changes = harness_differences(var_a, manifests[run_a].get("harnesses", {}).get(var_a),
                                          manifests[run_b].get("harnesses", {}).get(var_b))
            if changes:
                found.append(HarnessChange(var_a, arm_a, arm_b, tuple(changes)))
    return found
