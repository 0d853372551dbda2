"""Naming a harness: errors before any trial, naming file, variant, field and fix; identity in every pin."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nightshift.experiment.comparability import check_comparable
from nightshift.experiment.config import ExperimentError, Variant
from nightshift.experiment.manifest import ModelPin, build_manifest
from nightshift.experiment.trials import trial_id
from nightshift.harnesses.pins import pin_harnesses
from nightshift.harnesses.resolve import resolve_harness
from nightshift.preflight import check_experiment


def write(tmp_path: Path, harness: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: x\nvariants:\n  - {{name: ref, model: sim-strong}}\n"
                    f"  - {{name: ours, model: sim-strong, harness: {harness}}}\n")
    return path


@pytest.mark.parametrize(("harness", "field", "says"), [
    ("{kind: python, entrypoint: 'no_such_pkg.loop:PlanAct'}", "entrypoint", "cannot import module 'no_such_pkg"),
    ("{kind: python, entrypoint: 'examples.plan_act:PlanActt'}", "entrypoint", "has no attribute 'PlanActt'"),
    ("{kind: python, entrypoint: planact}", "entrypoint", "no plugin named 'planact'"),
    ("{kind: python, entrypoint: 'examples.plan_act:PlanAct', settings: {plan_stepz: 3}}", "settings.plan_stepz",
     "has no setting 'plan_stepz'"),
    ("{kind: python, entrypoint: 'examples.plan_act:PlanAct', settings: {plan_steps: many}}", "settings.plan_steps",
     "valid integer"),
    ("{kind: python, entrypoint: 'tests.harness_plugins:Raises', settings: {a: 1}}", "settings",
     "declares no Settings model"),
    ("{kind: python, entrypoint: 'tests.harness_plugins:PROMPT'}", "entrypoint", "has no run("),
    ("{kind: reference, settings: {max_step: 3}}", "settings.max_step", "has no setting 'max_step'"),
])
def test_bad_harness_fails_before_any_trial(tmp_path: Path, harness: str, field: str, says: str) -> None:
    path = write(tmp_path, harness)
    with pytest.raises(ExperimentError) as err:
        check_experiment(path)
    message = str(err.value)
    assert str(path) in message and "variant 'ours'" in message
    assert f"'variants.1.harness.{field}'" in message and says in message


def test_an_import_error_inside_the_module_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "broken_agent.py").write_text("import not_installed_dependency\nclass A: ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ExperimentError, match=r"cannot import module 'broken_agent'.*not_installed_dependency"):
        check_experiment(write(tmp_path, "{kind: python, entrypoint: 'broken_agent:A'}"))


def test_kind_fields_are_checked() -> None:
    with pytest.raises(ValueError, match="needs entrypoint"):
        Variant(name="v", model="m", harness={"kind": "python"})
    with pytest.raises(ValueError, match="needs run"):
        Variant(name="v", model="m", harness={"kind": "command", "install": ["true"]})
    with pytest.raises(ValueError, match="belong to kind 'command'"):
        Variant(name="v", model="m", harness={"kind": "python", "entrypoint": "a:b", "run": "x"})
    legacy = Variant(name="v", model="m", harness={"max_steps": 4, "temperature": 0.5})
    assert legacy.harness.kind == "reference" and legacy.harness.settings == {"max_steps": 4, "temperature": 0.5}


def test_identity_reaches_manifest_and_trial_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                builtin_cases) -> None:
    from nightshift.experiment.config import Experiment

    (tmp_path / "team_agent.py").write_text("from examples.plan_act import PlanAct as Agent\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ours = {"kind": "python", "entrypoint": "team_agent:Agent", "settings": {"plan_steps": 2}}
    exp = Experiment(name="x", variants=[Variant(name="ref", model="sim-strong"),
                                         Variant(name="ours", model="sim-strong", harness=ours)])
    pins = pin_harnesses(exp, {v.name: resolve_harness(v.harness) for v in exp.variants}, backend=None)
    identities = pins.identities
    assert pins.backends == {} and pins.case_images == {}
    assert identities["ref"]["entrypoint"] == "reference" and identities["ref"]["source"] == "builtin"
    pin = identities["ours"]
    assert pin["source"] == "module" and pin["version"].startswith("sha256:")  # a local module: its content hash
    assert pin["settings"] == {"plan_steps": 2, "command_timeout_s": 60.0, "max_tokens": 1024}
    models = {v.name: ModelPin(model="sim-strong", version="s-1") for v in exp.variants}
    manifest = build_manifest(exp, builtin_cases[:1], models, "sim", "rootfs:/", "g/1", harnesses=identities)
    assert manifest.harnesses["ours"] == pin
    first = trial_id(manifest, builtin_cases[0], exp.variants[1], 1)

    # the module's code changes: a new content hash, a new trial, and compare shows (not refuses) it
    (tmp_path / "team_agent.py").write_text("from examples.plan_act import PlanAct as Agent  # v2\n")
    changed = {**pin, "version": resolve_harness(exp.variants[1].harness).identity["version"]}
    assert changed["version"] != pin["version"]
    later = manifest.model_copy(update={"harnesses": {**manifest.harnesses, "ours": changed}})
    assert trial_id(later, builtin_cases[0], exp.variants[1], 1) != first
    assert trial_id(later, builtin_cases[0], exp.variants[0], 1) == trial_id(manifest, builtin_cases[0],
                                                                             exp.variants[0], 1)
    shown = check_comparable(manifest, later)
    assert [d.field for d in shown] == ["harnesses[ours].version"]
    sys.modules.pop("team_agent", None)


def test_harness_fields_in_the_variant_change_the_trial_id(builtin_cases) -> None:
    from nightshift.experiment.config import Experiment

    base = Variant(name="m", model="sim-strong", harness={"kind": "command", "run": "mini -t x"})
    other = Variant(name="m", model="sim-strong", harness={"kind": "command", "run": "mini -t x",
                                                            "install": ["pip install a==1"]})
    exp = Experiment(name="x", variants=[base])
    manifest = build_manifest(exp, builtin_cases[:1], {"m": ModelPin(model="sim-strong", version="s")}, "sim",
                              "rootfs:/", "g/1", harnesses={"m": resolve_harness(base.harness).identity})
    assert trial_id(manifest, builtin_cases[0], base, 1) != trial_id(manifest, builtin_cases[0], other, 1)
