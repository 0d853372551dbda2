"""Expand a run into trials (cases × variants × seeds) and give each a content-hash id."""

from __future__ import annotations

from pydantic import BaseModel

from nightshift.experiment.config import Variant
from nightshift.experiment.manifest import RunManifest, canonical_hash
from nightshift.models import Case


class TrialSpec(BaseModel):
    """Everything one trial needs; its id is the content hash of what decides its outcome."""

    trial_id: str
    run_id: str
    case: Case
    variant: Variant
    seed: int
    model_version: str


def trial_id(manifest: RunManifest, case: Case, variant: Variant, seed: int) -> str:
    pins = {"pins": manifest.trial_pins(variant.name), "suite": case.suite, "case": case.id,
            "case_content": case.content_hash, "variant": variant.model_dump(), "seed": seed}
    if manifest.metrics.get(case.suite):  # a changed metric (version, settings) grades differently: a new trial
        pins["metrics"] = manifest.metrics[case.suite]
    if manifest.flag_policy:  # a policy that fails flagged trials makes the scanners part of the outcome
        pins["flags"] = {"policy": manifest.flag_policy, "scanners": manifest.scanners}
    return canonical_hash(pins)


def expand_trials(manifest: RunManifest, cases: list[Case], variants: list[Variant]) -> list[TrialSpec]:
    """Seed-major, then case, then variant: every variant's trials stay interleaved, so a night cut
    short still compares variants on the same cases."""
    return [
        TrialSpec(trial_id=trial_id(manifest, case, variant, seed), run_id=manifest.run_id, case=case,
                  variant=variant, seed=seed, model_version=manifest.models[variant.name].version)
        for seed in manifest.seeds for case in cases for variant in variants
    ]
