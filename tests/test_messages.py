"""Messages that point at the fix: every invalid setting at once with "did you mean", a missing suite folder named
as missing, `nightshift check` validating an experiment without running it, the reason a noise floor is not
measured, and case workspaces without the byte-compiled files pip leaves in installed suites."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nightshift.analysis.noise import why_unmeasured
from nightshift.errors import HarnessError, SuiteError
from nightshift.experiment.config import ExperimentError, HarnessSpec, load_experiment
from nightshift.harnesses.resolve import resolve_harness
from nightshift.metrics import MetricError, resolve_metric
from nightshift.preflight import check_experiment
from nightshift.suites import resolve_suite
from tests.sandbox_support import BACKENDS, Tracked, make_backend

REPO = Path(__file__).resolve().parent.parent
NIGHTSHIFT = [sys.executable, "-m", "nightshift.cli"]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    return path


def test_every_unknown_experiment_field_is_reported_with_the_closest_name(tmp_path):
    path = _write(tmp_path, "name: x\nsuites: [builtin]\nconcurency: 3\nseeds: [1]\nvariants:\n"
                            "  - {name: a, model: sim-strong, max_tokns: 5}\n  - {name: b, modle: sim-weak}\n")
    with pytest.raises(ExperimentError) as err:
        load_experiment(path)
    text = str(err.value)
    assert "field 'concurency': not a field (did you mean 'concurrency'?)" in text
    assert "field 'variants.0.max_tokns': not a field (did you mean 'max_tokens'?)" in text  # a nested model's
    assert "field 'variants.1.modle'" in text and "'model'" in text
    assert text.count("field '") >= 4  # and b's missing model: everything in one message


def test_an_unknown_field_with_no_close_name_lists_what_the_model_takes(tmp_path):
    path = _write(tmp_path, "name: x\nsuites: [builtin]\nvariants:\n  - {name: a, model: m, zzzzzz: 1}\n")
    with pytest.raises(ExperimentError) as err:
        load_experiment(path)
    assert "field 'variants.0.zzzzzz': not a field (unknown field; it takes [" in str(err.value)
    assert "'model'" in str(err.value)


def test_every_invalid_harness_setting_is_reported_at_once():
    spec = HarnessSpec.model_validate({"kind": "reference", "settings": {"max_stepz": 2, "temperature": "hot",
                                                                         "max_tokens": 0}})
    with pytest.raises(HarnessError) as err:
        resolve_harness(spec)
    text = str(err.value)
    assert err.value.field == "settings.max_stepz"
    assert "has no setting 'max_stepz' (did you mean 'max_steps'?)" in text
    assert "settings.temperature:" in text and "settings.max_tokens:" in text


def test_every_invalid_metric_setting_is_reported_at_once():
    with pytest.raises(MetricError) as err:
        resolve_metric({"use": "files_outside_allowed", "settings": {"allowd": ["src/*"], "ignore": 3}})
    text = str(err.value)
    assert "settings.allowd: not a field (did you mean 'allowed'?)" in text
    assert "settings.allowed: Field required (required: add it)" in text
    assert "settings.ignore:" in text


def test_a_missing_suite_folder_is_named_missing_and_a_folder_without_suite_toml_is_told_apart(tmp_path):
    with pytest.raises(SuiteError, match="no such folder"):
        resolve_suite("nosuch", tmp_path)
    (tmp_path / "plain").mkdir()
    with pytest.raises(SuiteError, match=r"not a suite folder \(no suite.toml\)"):
        resolve_suite("plain", tmp_path)


def test_check_validates_an_experiment_without_running_it(tmp_path):
    good = subprocess.run([*NIGHTSHIFT, "check", str(REPO / "experiments" / "default.yaml")], capture_output=True,
                          text=True, timeout=300, cwd=tmp_path)
    assert good.returncode == 0, good.stderr + good.stdout
    assert "ok — 50 cases × 2 variants × 2 seeds = 200 trials" in good.stdout
    assert not (tmp_path / "runs").exists() and not (REPO / "experiments" / "runs").exists()  # nothing ran
    bad = _write(tmp_path, "name: x\nsuites: [builtin, nosuch]\nseeds: [1]\nvariants:\n"
                           "  - {name: a, model: sim-strong, harness: {kind: reference, settings: {max_stepz: 1}}}\n")
    out = subprocess.run([*NIGHTSHIFT, "check", str(bad)], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "2 problems" in out.stdout and "no such folder" in out.stdout and "'max_steps'?" in out.stdout


def test_check_refuses_an_install_on_the_hosts_own_root_before_anything_is_built(tmp_path):
    # the builtin suite's cases bring no image, so the install would have to go onto 'host'
    exp = _write(tmp_path, "name: x\nsuites: [builtin]\ncases: [py-bugfix-slugify]\nseeds: [1]\n"
                           "sandbox: {backend: bubblewrap, image: host}\nvariants:\n"
                           "  - {name: tool, model: sim-strong, harness: {kind: command, run: 'true', "
                           "install: ['true']}}\n")
    out = subprocess.run([*NIGHTSHIFT, "check", str(exp)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "field 'sandbox.image'" in out.stdout and "variant 'tool' installs its harness" in out.stdout
    assert "py-bugfix-slugify" in out.stdout and "nightshift build-image --rootfs-only" in out.stdout


def test_check_experiment_and_check_agree_on_a_valid_file():
    checked = check_experiment(REPO / "experiments" / "default.yaml")
    assert [v.name for v in checked.exp.variants] == ["strong", "weak"]


@pytest.mark.parametrize(("n_a", "n_b", "reason"), [
    ([1, 1, 1], [1, 1, 1], "one seed per case: give seeds: [1, 2, ...]"),
    ([2], [2], "one case: the floor needs ≥ 2 cases with ≥ 2 seeds in both arms; add cases"),
    ([2, 1, 1, 1], [2, 2, 2, 2], "1 of 4 cases have ≥ 2 seeds in both arms; the floor needs 2"),
])
def test_an_unmeasured_noise_floor_says_why(n_a, n_b, reason):
    assert why_unmeasured(np.array(n_a), np.array(n_b)) == reason


@pytest.mark.parametrize("name", BACKENDS)
def test_a_case_workspace_has_no_byte_compiled_files(name, tmp_path):
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "lib.cpython-311.pyc").write_bytes(b"\0")
    (tmp_path / "lib.py").write_text("x = 1\n")
    (tmp_path / "old.pyc").write_bytes(b"\0")
    backend = Tracked(make_backend(name))
    box = backend.create(workspace_source=tmp_path)
    try:
        assert box.exec("ls -A", timeout_s=30).stdout.split() == ["lib.py"]
    finally:
        box.destroy()


def test_init_example_harness_writes_a_harness_and_an_experiment_that_check_accepts(tmp_path):
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*NIGHTSHIFT, *args], capture_output=True, text=True, timeout=300, cwd=tmp_path)

    made = cli("init", "--example", "harness")
    assert made.returncode == 0, made.stderr
    harness = (tmp_path / "agents" / "plan_act.py").read_text()
    assert harness == (REPO / "examples" / "plan_act.py").read_text().replace("examples.plan_act:", "agents.plan_act:")
    assert cli("validate-suite", "suites/starter").returncode == 0
    checked = cli("check", "experiments/plan_act.yaml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "variant plan_act: model sim-strong, harness python (agents.plan_act:PlanAct)" in checked.stdout
    again = cli("init", "--example", "harness")  # the team's edits are never overwritten
    assert again.returncode == 2 and "not overwriting" in again.stdout + again.stderr


def test_a_misspelt_entrypoint_gets_the_closest_name_and_a_file_path_its_module_name():
    from nightshift.registry import PluginError, load_object

    with pytest.raises(PluginError, match=r"has no attribute 'PlanActt'.*did you mean 'PlanAct'\?"):
        load_object("examples.plan_act:PlanActt", group="nightshift.harnesses")
    with pytest.raises(PluginError, match=r"names a file; name its module instead: 'agents.mine:Mine'"):
        load_object("agents/mine.py:Mine", group="nightshift.harnesses")
    with pytest.raises(PluginError, match=r"set \$NIGHTSHIFT_HOME"):
        load_object("no_such_module_here:Thing", group="nightshift.harnesses")


def test_help_lists_the_exit_statuses():
    out = subprocess.run([*NIGHTSHIFT, "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "exit status: 0 done" in out.stdout and "5 everything was written" in out.stdout
