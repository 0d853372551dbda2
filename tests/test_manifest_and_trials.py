"""The manifest pins a run by content; trial ids are content hashes that change only with what they cover."""

from pathlib import Path

import pytest

from nightshift.experiment.config import Experiment, Variant
from nightshift.experiment.manifest import ModelPin, RunManifest, build_manifest, code_version
from nightshift.experiment.trials import expand_trials, trial_id
from nightshift.suites.loader import tree_hash

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def exp() -> Experiment:
    return Experiment(name="t", variants=[Variant(name="a", model="sim-strong"), Variant(name="b", model="sim-weak")],
                      seeds=[1, 2])


@pytest.fixture
def manifest(exp: Experiment, builtin_cases) -> RunManifest:
    models = {"a": ModelPin(model="sim-strong", version="sim-strong-1"), "b": ModelPin(model="sim-weak", version="w-1")}
    return build_manifest(exp, builtin_cases[:3], models, "simulator", "rootfs:/:sha256:abc", "public-tests/1")


def test_manifest_records_pins(manifest: RunManifest) -> None:
    assert manifest.models["a"].version == "sim-strong-1"
    assert manifest.sandbox_identity.startswith("rootfs:")
    assert len(manifest.cases) == 3 and len(manifest.suite_hash) == 64
    assert manifest.seeds == [1, 2]
    assert manifest.packages["prefect"] == "3.9.1"
    assert manifest.code_version == code_version() != ""
    assert manifest.run_id == f"t-{manifest.manifest_hash[:12]}"


def test_manifest_hash_ignores_time_but_not_pins(manifest: RunManifest, tmp_path: Path) -> None:
    later = manifest.model_copy(update={"created_at": "2099-01-01T00:00:00+00:00"})
    assert later.manifest_hash == manifest.manifest_hash
    other_model = manifest.model_copy(update={"models": {**manifest.models, "a": ModelPin(model="sim-strong",
                                                                                          version="sim-strong-2")}})
    assert other_model.manifest_hash != manifest.manifest_hash
    manifest.write(tmp_path / "manifest.json")
    assert RunManifest.read(tmp_path / "manifest.json").manifest_hash == manifest.manifest_hash


def test_expansion_is_cases_by_variants_by_seeds(manifest, exp, builtin_cases) -> None:
    trials = expand_trials(manifest, builtin_cases[:3], exp.variants)
    assert len(trials) == 3 * 2 * 2
    assert len({t.trial_id for t in trials}) == len(trials)
    # variants interleave: each consecutive pair is the same case and seed, both variants
    assert [t.variant.name for t in trials[:4]] == ["a", "b", "a", "b"]
    assert trials[0].case.id == trials[1].case.id


def test_trial_id_tracks_content(manifest, exp, builtin_cases) -> None:
    case = builtin_cases[0]
    base = trial_id(manifest, case, exp.variants[0], 1)
    assert base == trial_id(manifest, case, exp.variants[0], 1)
    assert base != trial_id(manifest, case, exp.variants[0], 2)
    assert base != trial_id(manifest, case, exp.variants[1], 1)
    assert base != trial_id(manifest, case.model_copy(update={"content_hash": "x"}), exp.variants[0], 1)
    hotter = exp.variants[0].model_copy(update={"harness": exp.variants[0].harness.model_copy(
        update={"settings": {"temperature": 0.7}})})
    assert base != trial_id(manifest, case, hotter, 1)
    # more seeds or more cases in the run do not change existing trials' ids (their cache stays valid)
    grown = manifest.model_copy(update={"seeds": [1, 2, 3], "cases": {**manifest.cases, "new": "h"}})
    assert trial_id(grown, case, exp.variants[0], 1) == base


def test_case_content_hash_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("1")
    first = tree_hash(tmp_path)
    (tmp_path / "a.txt").write_text("2")
    assert tree_hash(tmp_path) != first
    (tmp_path / "a.txt").write_text("1")
    assert tree_hash(tmp_path) == first
    (tmp_path / "a.txt").chmod(0o755)
    assert tree_hash(tmp_path) != first
