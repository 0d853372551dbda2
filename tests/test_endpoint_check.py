"""An endpoint problem is one line before any trial starts: the file, the field and the URL tried."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from nightshift.experiment.config import ExperimentError, load_experiment
from nightshift.flows import endpoint_check
from nightshift.flows.endpoint_check import check_endpoint
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from tests.conftest import BUILTIN, free_port


def _experiment(tmp_path: Path, base_url: str, model: str = "sim-strong") -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"""
name: check
variants: [{{name: a, model: sim-strong}}, {{name: b, model: {model}}}]
model: {{base_url: "{base_url}", api_key_env: NIGHTSHIFT_TEST_KEY}}
""")
    return path


def _problem(path: Path) -> str:
    """The check's one-line error; fast means at most one request, bounded by the check's own timeout (counted
    here, not timed: a window would fail on a loaded machine, and a retry loop could pass one)."""
    exp = load_experiment(path)
    asked: list[float] = []
    real_get = httpx.get

    def get(url, **kwargs):
        asked.append(kwargs["timeout"])
        return real_get(url, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(endpoint_check.httpx, "get", get)
        with pytest.raises(ExperimentError) as err:
            check_endpoint(exp, path)
    assert len(asked) <= 1 and all(0 < t <= 5 for t in asked), asked
    assert "\n" not in str(err.value)  # one line
    return str(err.value)


def test_missing_key_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NIGHTSHIFT_TEST_KEY", raising=False)
    path = _experiment(tmp_path, "http://127.0.0.1:1/v1")
    assert _problem(path).startswith(f"{path}: field 'model.api_key_env': environment variable NIGHTSHIFT_TEST_KEY")


def test_closed_port_names_base_url_and_the_url_tried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIGHTSHIFT_TEST_KEY", "sk-test")
    url = f"http://127.0.0.1:{free_port()}/v1"
    path = _experiment(tmp_path, url)
    line = _problem(path)
    assert line.startswith(f"{path}: field 'model.base_url': nothing answers at {url}/models")


def test_a_model_the_endpoint_does_not_serve_names_the_variant(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NIGHTSHIFT_TEST_KEY", "sk-test")
    with running_simulator(SimulatorConfig(latency_ms=1), [BUILTIN]) as url:
        path = _experiment(tmp_path, url, model="gpt-nope")
        line = _problem(path)
        assert line.startswith(f"{path}: field 'variants[1].model': 'gpt-nope' (variant 'b') is not served by "
                               f"{url}/models") and "sim-strong" in line
        check_endpoint(load_experiment(_experiment(tmp_path, url)), path)  # both served: no error
