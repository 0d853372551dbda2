"""Command harnesses: an agent CLI inside the sandbox reaches the model only through the per-trial proxy."""

from __future__ import annotations

import hashlib
import json
import shlex
import time
from pathlib import Path

import pytest

from nightshift.contracts import SandboxLimits
from nightshift.experiment.config import ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.models import CaseLimits, TrialStatus
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN
from tests.sandbox_support import BACKENDS, SMALL, make_backend

SECRET = "sk-real-" + hashlib.sha256(b"never inside").hexdigest()[:32]
AGENT = (Path(__file__).parent / "fixtures" / "cli_agent.py").read_text()
LIMITS = SandboxLimits(**{**SMALL.model_dump(), "memory_mb": 256})


@pytest.fixture(scope="module")
def sim(tmp_path_factory):
    log = tmp_path_factory.mktemp("sim") / "requests.jsonl"
    with running_simulator(SimulatorConfig(latency_ms=2), [BUILTIN], log_path=log) as url:
        yield url, log


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request):
    return make_backend(request.param)


def trial(url: str, backend, run_dir: Path, case, mode: str, gateway: ModelGateway | None = None, **harness):
    gateway = gateway or ModelGateway.from_settings(url, SECRET, ModelEndpoint())
    ctx = TrialContext(run_dir=run_dir, backend=backend, gateway=gateway, limits=LIMITS, grader=CaseGrader())
    spec = TrialSpec(trial_id=f"c{time.monotonic_ns()}", run_id="r", case=case, seed=1, model_version="s",
                     variant=Variant(name="cli", model="sim-strong", harness={
                         "kind": "command", "run": f'python3 -c "$AGENT_SRC" {mode}', "env": {"AGENT_SRC": AGENT},
                         **harness}))
    row = execute_trial(spec, ctx)
    path = run_dir / "trajectories" / f"{spec.trial_id}.jsonl"
    return row, [json.loads(line) for line in path.read_text().splitlines()], path


def solvable(cases):
    return next(c for c in cases if decide("sim-strong", c.id, 1) is Plan.solve)


def test_a_cli_agent_solves_through_the_proxy(sim, backend, tmp_path, builtin_cases) -> None:
    row, events, _ = trial(sim[0], backend, tmp_path, solvable(builtin_cases), "solve")
    assert row.status == TrialStatus.resolved, row.reason
    calls = [e for e in events if e["event"] == "model"]
    assert len(calls) == row.model_calls == row.steps >= 3 and row.input_tokens > 0 and row.output_tokens > 0
    assert calls[0]["request"]["seed"] == 1 and "mswea_bash_command" in calls[0]["response"]["choices"][0][
        "message"]["content"]


def test_the_real_key_never_enters_the_sandbox(sim, backend, tmp_path, builtin_cases) -> None:
    row, events, path = trial(sim[0], backend, tmp_path, builtin_cases[0],
                              f"hunt {hashlib.sha256(SECRET.encode()).hexdigest()}")
    end = next(e for e in events if e["event"] == "command_end")
    assert "clean key nstrial-" in end["stdout"], end
    assert row.model_calls == 1 and row.status in (TrialStatus.failed, TrialStatus.resolved)
    assert SECRET not in path.read_text() and SECRET not in row.model_dump_json()


@pytest.mark.parametrize("backend_name", ["bubblewrap"])
def test_faults_end_as_clear_statuses(sim, tmp_path, builtin_cases, backend_name) -> None:
    backend = make_backend(backend_name)
    case = builtin_cases[0]
    row, events, _ = trial(sim[0], backend, tmp_path / "steps", case, "forever", max_steps=4)
    assert row.status == TrialStatus.step_limit and row.model_calls == 4 and row.agent_s < 30
    assert any(e["event"] == "proxy_refused" and e["status"] == 403 for e in events)

    row, _, _ = trial(sim[0], backend, tmp_path / "missing", case, "x", run="no-such-agent --task {instruction_file}")
    assert row.status == TrialStatus.agent_error and "run command not found" in row.reason

    row, events, _ = trial(sim[0], backend, tmp_path / "malformed", case, "malformed")
    assert row.status == TrialStatus.agent_error and "exit code 3" in row.reason and row.model_calls == 0
    assert [e["status"] for e in events if e["event"] == "proxy_refused"] == [400]

    row, events, _ = trial(sim[0], backend, tmp_path / "escape", case, "escape")
    assert row.status == TrialStatus.agent_error and "exit code 4" in row.reason
    assert "REACHED" not in next(e for e in events if e["event"] == "command_end")["stdout"]

    row, _, _ = trial(sim[0], backend, tmp_path / "never", case, "never")
    assert row.status == TrialStatus.failed and "without calling the model" in row.reason

    slow = case.model_copy(update={"limits": CaseLimits(wall_clock_s=3)})
    row, _, _ = trial(sim[0], backend, tmp_path / "slow", slow, "x", run="sleep 60")
    assert row.status == TrialStatus.timeout and row.agent_s < 15


def test_waiting_on_the_quota_is_not_the_agents_time(sim, tmp_path, builtin_cases) -> None:
    """A CLI agent whose calls wait on the key's quota (30 requests/min: one call every 2 s) past its
    3 s limit still finishes: the watchdog reads working time, which the quota waits are not."""
    from nightshift.gateway.buckets import Quota

    case = solvable(builtin_cases).model_copy(update={"limits": CaseLimits(wall_clock_s=3)})
    gateway = ModelGateway(sim[0], SECRET, quota=Quota(requests_per_minute=30, burst_s=2.0))
    row, events, _ = trial(sim[0], make_backend("bubblewrap"), tmp_path, case, "solve", gateway=gateway)
    assert row.status == TrialStatus.resolved, row.reason
    assert row.agent_s > 3 and row.waiting_s > 2 and row.working_s < 3, (row.agent_s, row.waiting_s, row.working_s)


HUGE = r'''
import json, os, urllib.error, urllib.request
body = {"model": os.environ["NIGHTSHIFT_MODEL"], "messages": [{"role": "user", "content": "hi"}],
        "max_tokens": 10**9}
for _ in range(2):  # the second time the gateway knows the key's tokens/min from the first answer's headers
    request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", json.dumps(body).encode(),
                                     {"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"],
                                      "Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=60)
        print("answered")
    except urllib.error.HTTPError as exc:
        print("refused", exc.code)
'''


def test_a_request_too_large_for_the_quota_is_the_agents_not_infra(sim, tmp_path, builtin_cases) -> None:
    """max_tokens = 10^9 can never be admitted by the key's tokens/min: the agent is told (400) and goes on;
    it must not end the trial as infra_error (which would drop it from every denominator)."""
    row, events, _ = trial(sim[0], make_backend("bubblewrap"), tmp_path, builtin_cases[0], "x",
                           run=f"python3 -c {shlex.quote(HUGE)}")
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status != TrialStatus.infra_error, (row.reason, end["stdout"], end["stderr"])
    assert end["stdout"].split("\n")[:2] == ["refused 400", "refused 400"], end["stdout"]
