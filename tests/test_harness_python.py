"""Python harnesses run under nightshift's limits: a raise is agent_error, a hang or overrun is stopped."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from nightshift.contracts import SandboxLimits
from nightshift.experiment.config import ModelEndpoint, ModelPrice, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.models import CaseLimits, TrialStatus
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN
from tests.sandbox_support import SMALL, make_backend


@pytest.fixture(scope="module")
def sim_url():
    with running_simulator(SimulatorConfig(latency_ms=1), [BUILTIN]) as url:
        yield url


@pytest.fixture(scope="module")
def backend():
    return make_backend("bubblewrap")


def run(sim_url: str, backend, tmp_path: Path, case, harness: dict, **variant) -> tuple:
    settings = ModelEndpoint(prices={"sim-strong": ModelPrice(input_per_mtok=1000, output_per_mtok=1000)})
    ctx = TrialContext(run_dir=tmp_path, backend=backend, gateway=ModelGateway.from_settings(sim_url, "sk-t", settings),
                       limits=SandboxLimits(**{**SMALL.model_dump(), "memory_mb": 256}), grader=CaseGrader())
    spec = TrialSpec(trial_id=f"t{time.monotonic_ns()}", run_id="r", case=case, seed=1, model_version="s",
                     variant=Variant(name="v", model="sim-strong", harness=harness, **variant))
    row = execute_trial(spec, ctx)
    events = [json.loads(line) for line in (tmp_path / "trajectories" / f"{spec.trial_id}.jsonl").read_text()
              .splitlines()]
    return row, events


def test_the_example_harness_solves_a_case(sim_url, backend, tmp_path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if decide("sim-strong", c.id, 1) is Plan.solve)
    row, events = run(sim_url, backend, tmp_path, case, {"kind": "python", "entrypoint": "examples.plan_act:PlanAct"})
    assert row.status == TrialStatus.resolved, row.reason
    assert row.model_calls >= 3 and row.input_tokens > 0
    assert [e["event"] for e in events][:3] == ["trial", "start", "plan"] and events[-1]["event"] == "submit"
    assert events[0]["instruction"] == case.instruction and events[0]["harness"] == "python"
    assert "invalid_event" not in {e["event"] for e in events}  # the example's lines fit the schema


def test_a_raising_harness_is_agent_error_with_its_traceback(sim_url, backend, tmp_path, builtin_cases) -> None:
    row, events = run(sim_url, backend, tmp_path, builtin_cases[0],
                      {"kind": "python", "entrypoint": "tests.harness_plugins:Raises"})
    assert row.status == TrialStatus.agent_error and "KeyError" in row.reason and row.model_calls == 1
    assert events[-1]["event"] == "agent_error" and "plan_for_step_7" in events[-1]["traceback"]
    assert "harness_plugins.py" in events[-1]["traceback"]


def test_a_hanging_harness_is_stopped_at_the_wall_clock(sim_url, backend, tmp_path, builtin_cases) -> None:
    case = builtin_cases[0].model_copy(update={"limits": CaseLimits(wall_clock_s=2)})
    started = time.monotonic()
    row, events = run(sim_url, backend, tmp_path, case, {"kind": "python", "entrypoint": "tests.harness_plugins:Hangs"})
    assert row.status == TrialStatus.timeout and "was stopped" in row.reason and "abandoned" not in row.reason
    assert row.agent_s < 30 and time.monotonic() - started < 60  # it hangs for ever: ending at all is the stop
    assert events[-1]["event"] == "timeout"


def test_an_overrunning_harness_is_held_to_every_limit(sim_url, backend, tmp_path, builtin_cases) -> None:
    overruns = {"kind": "python", "entrypoint": "tests.harness_plugins:Overruns", "max_steps": 3}
    row, _ = run(sim_url, backend, tmp_path / "steps", builtin_cases[0], overruns)
    assert row.status == TrialStatus.step_limit and row.model_calls == 3 and row.steps == 3
    row, _ = run(sim_url, backend, tmp_path / "tokens", builtin_cases[0], {**overruns, "max_steps": 40},
                 max_tokens=20)
    assert row.status == TrialStatus.token_limit and 20 <= row.input_tokens + row.output_tokens < 20 + 10
    row, _ = run(sim_url, backend, tmp_path / "cost", builtin_cases[0], {**overruns, "max_steps": 40},
                 max_cost_usd=0.02)
    assert row.status == TrialStatus.cost_limit and 0.02 <= row.cost_usd < 0.03
    # the reference loop is held to the same token budget
    row, _ = run(sim_url, backend, tmp_path / "ref", builtin_cases[0], {"kind": "reference"}, max_tokens=60)
    assert row.status == TrialStatus.token_limit


def test_a_harness_cannot_claim_infra_error(sim_url, backend, tmp_path, builtin_cases) -> None:
    row, _ = run(sim_url, backend, tmp_path, builtin_cases[0],
                 {"kind": "python", "entrypoint": "tests.harness_plugins:ClaimsInfra"})
    assert row.status == TrialStatus.agent_error and "no gateway call failed" in row.reason


@pytest.mark.parametrize("harness", ["RaisesGatewayError", "RaisesSandboxError"])
def test_an_infra_error_the_harness_raises_itself_is_its_own(sim_url, backend, tmp_path, builtin_cases,
                                                             harness) -> None:
    """Only what nightshift saw fail is infrastructure: a forged GatewayError or SandboxError is agent_error."""
    row, events = run(sim_url, backend, tmp_path, builtin_cases[0],
                      {"kind": "python", "entrypoint": f"tests.harness_plugins:{harness}"})
    assert row.status == TrialStatus.agent_error, row.reason
    assert "(not really)" in row.reason and any(e["event"] == "agent_error" for e in events)


def test_a_sandbox_that_fails_under_the_harness_is_infra_error(sim_url, backend, tmp_path, builtin_cases) -> None:
    row, events = run(sim_url, backend, tmp_path, builtin_cases[0],
                      {"kind": "python", "entrypoint": "tests.harness_plugins:SandboxDiesUnderIt"})
    assert row.status == TrialStatus.infra_error, row.reason
    assert "the sandbox failed under the harness" in row.reason
    assert any(e["event"] == "infra_error" and e.get("kind") == "sandbox" for e in events)


def test_a_harness_may_end_itself_at_a_limit(sim_url, backend, tmp_path, builtin_cases) -> None:
    row, events = run(sim_url, backend, tmp_path, builtin_cases[0],
                      {"kind": "python", "entrypoint": "tests.harness_plugins:StopsAtItsOwnLimit"})
    assert row.status == TrialStatus.step_limit and "my plan ran out of steps" in row.reason and row.score == 0
