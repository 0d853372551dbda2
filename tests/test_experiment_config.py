"""An experiment file is validated before any trial starts; errors name the file, field and fix."""

from pathlib import Path

import pytest

from nightshift.experiment.config import ExperimentError
from nightshift.preflight import check_experiment

REPO = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(text)
    return path


def test_default_experiment_loads() -> None:
    checked = check_experiment(REPO / "experiments" / "default.yaml")
    exp = checked.exp
    assert [v.model for v in exp.variants] == ["sim-strong", "sim-weak"]
    assert exp.output_dir == REPO / "runs"
    assert checked.suite_dirs == [REPO / "suites" / "builtin"]
    assert set(checked.harnesses) == {"strong", "weak"}


@pytest.mark.parametrize(("body", "field", "fix"), [
    ("name: x\nvariants: [{name: a, model: m}]\nconcurency: 3\n", "concurency", "did you mean 'concurrency'?"),
    ("name: x\n", "variants", "required"),
    ("name: x\nvariants: [{name: a, model: m, harness: {tools: [bash]}}]\n", "variants.0.harness.settings.tools",
     "add 'submit'"),
    ("name: x\nvariants: [{name: a, model: m}, {name: a, model: n}]\n", "(top level)", "rename"),
    ("name: x\nvariants: [{name: a, model: m}]\nseeds: [1, 1]\n", "(top level)", "remove the repeats"),
    ("name: x\nvariants: [{name: a, model: m}]\nconcurrency: 0\n", "concurrency", "greater than or equal to 1"),
    ("name: x\nvariants: [{name: a, model: m}]\nsandbox: {backend: vm}\n", "sandbox.backend", "'bubblewrap'"),
])
def test_invalid_files_name_field_and_fix(tmp_path: Path, body: str, field: str, fix: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(ExperimentError) as err:
        check_experiment(path)
    message = str(err.value)
    assert str(path) in message
    assert f"'{field}'" in message
    assert fix in message


def test_missing_suite_folder_is_named(tmp_path: Path) -> None:
    path = write(tmp_path, "name: x\nsuites: [nowhere]\nvariants: [{name: a, model: m}]\n")
    with pytest.raises(ExperimentError, match=r"field .suites.*nowhere.*no such folder"):
        check_experiment(path)


def test_not_yaml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ExperimentError, match="not valid YAML"):
        check_experiment(write(tmp_path, "name: [unclosed\n"))
    with pytest.raises(ExperimentError, match="no such experiment file"):
        check_experiment(tmp_path / "absent.yaml")
