"""Per-trial accounting in the result row, and the API key in no log, result or trajectory file."""

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from nightshift.contracts import SandboxLimits, SandboxSpec
from nightshift.experiment.config import HarnessSpec, ModelEndpoint, ModelPrice, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.models import ExecResult, GradeResult, TrialStatus
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulators
from nightshift.simulator.request_log import key_hash
from nightshift.tasks.results import write_result
from nightshift.tasks.run_trial import TrialContext, execute_trial

SECRET = "sk-live-DO-NOT-LEAK-7f3a9c1e5b"
PRICES = {"sim-strong": ModelPrice(input_per_mtok=2.5, output_per_mtok=10.0)}


class StubSandbox:
    id = "stub"

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace", env=None) -> ExecResult:
        return ExecResult(exit_code=0, stdout="", stderr="")

    def write_file(self, path: str, data: bytes) -> None: ...
    def read_file(self, path: str) -> bytes: return b""
    def copy_in(self, host_dir: Path, sandbox_dir: str) -> None: ...
    def destroy(self) -> None: ...


class StubBackend:
    name = "stub"

    def identity(self) -> str:
        return "stub"

    def create(self, spec: SandboxSpec) -> StubSandbox:
        return StubSandbox()

    def reap(self, keep_run_ids=None) -> int:
        return 0


class NoTests:
    def grade(self, case, sandbox) -> GradeResult:
        return GradeResult(tests=[])


@pytest.fixture(scope="module")
def endpoints(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, str], Path]]:
    """"tight": 120 requests/min in a half-second bucket (a second call at once meets a 429), some faults;
    "down": every request a 500."""
    logs = tmp_path_factory.mktemp("acct")
    tight = SimulatorConfig(latency_ms=1, requests_per_minute=120, burst_s=0.5,
                            faults={"500": 0.1, "reset": 0.1, "malformed": 0.1}, seed=5)
    down = SimulatorConfig(latency_ms=1, faults={"500": 1.0})
    with running_simulators({"tight": (tight, [], logs / "tight.jsonl"),
                             "down": (down, [], logs / "down.jsonl")}) as urls:
        yield urls, logs


def run_one(url: str, run_dir: Path, case, max_retries: int = 8):
    settings = ModelEndpoint(requests_per_minute=120, max_retries=max_retries, prices=PRICES)
    gateway = ModelGateway.from_settings(url, SECRET, settings)
    gateway.backoff.initial_s = 0.01
    spec = TrialSpec(trial_id=f"t-{run_dir.name}", run_id="r", case=case, seed=1, model_version="sim-strong-x",
                     variant=Variant(name="v", model="sim-strong", harness=HarnessSpec(settings={"max_steps": 3})))
    ctx = TrialContext(run_dir=run_dir, backend=StubBackend(), gateway=gateway, limits=SandboxLimits(),
                       grader=NoTests())
    result = execute_trial(spec, ctx)
    write_result(run_dir, result)
    return result


def test_result_row_counts_calls_tokens_429s_waits_and_cost(endpoints, builtin_cases, tmp_path: Path) -> None:
    urls, logs = endpoints
    result = run_one(urls["tight"], tmp_path / "ok", builtin_cases[0])
    assert result.status == TrialStatus.step_limit and result.steps == 3  # the simulator only says "ok"
    served = [line for line in (logs / "tight.jsonl").read_text().splitlines() if key_hash(SECRET) in line]
    assert result.model_calls == len(served) >= 4  # 3 answered, plus the 429s and faults retried
    assert result.rate_limited >= 1 and result.retry_wait_s > 0 and result.quota_wait_s >= 0
    assert result.input_tokens > 0 and result.output_tokens == 3
    expected = (result.input_tokens * 2.5 + result.output_tokens * 10.0) / 1e6
    assert result.cost_usd == pytest.approx(expected, abs=1e-6) and result.cost_usd > 0


def test_endpoint_down_is_infra_error(endpoints, builtin_cases, tmp_path: Path) -> None:
    result = run_one(endpoints[0]["down"], tmp_path / "down", builtin_cases[0], max_retries=1)
    assert result.status == TrialStatus.infra_error and "500" in result.reason
    assert result.model_calls == 2 and result.cost_usd == 0


def test_the_key_is_in_no_log_result_or_trajectory(endpoints, builtin_cases, tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture, capfd) -> None:
    caplog.set_level(logging.DEBUG)  # the openai SDK and httpx log requests at DEBUG
    urls, logs = endpoints
    run_one(urls["tight"], tmp_path / "a", builtin_cases[1])
    run_one(urls["down"], tmp_path / "b", builtin_cases[1], max_retries=1)
    files = [p for p in [*tmp_path.rglob("*"), *logs.rglob("*")] if p.is_file()]
    assert any(p.parent.name == "results" for p in files) and any(p.parent.name == "trajectories" for p in files)
    for path in files:
        assert SECRET not in path.read_text(errors="replace"), path
    assert caplog.records and SECRET not in caplog.text
    out, err = capfd.readouterr()
    assert SECRET not in out + err
