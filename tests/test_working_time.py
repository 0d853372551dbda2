"""Endpoint stalls are not the agent's fault: the time limit counts working time, so 30% of requests timing
out leaves every status as in the fault-free run; a clock-time ceiling reached by waiting is infra_error."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest

from nightshift.contracts import SandboxLimits
from nightshift.experiment.config import Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.gateway.retry import BackoffWait
from nightshift.graders import CaseGrader
from nightshift.harnesses import ToolAgent, working_clock
from nightshift.harnesses.tool_agent import ReferenceSettings
from nightshift.harnesses.working_clock import WorkingClock
from nightshift.models import CaseLimits
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.suites import load_cases
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN

CASES = ["sh-csv-column-sum", "py-bugfix-slugify", "dt-jsonl-daily-summary"]


class SlowModel:
    """Answers without tools after ``delay_s``; ``waits`` says whether that delay was the endpoint's."""

    def __init__(self, delay_s: float, waits: bool) -> None:
        self.delay_s, self.waits, self.waiting_s = delay_s, waits, 0.0

    def chat(self, **_: object) -> dict:
        time.sleep(self.delay_s)
        if self.waits:
            self.waiting_s += self.delay_s
        return {"message": {"role": "assistant", "content": "thinking"}, "model": "m", "finish_reason": "stop"}


def limited(case, working_s: float, ceiling_s: float | None = None, steps: int = 100):
    return case.model_copy(update={"limits": CaseLimits(max_steps=steps, wall_clock_s=working_s,
                                                        clock_ceiling_s=ceiling_s)})


def test_waiting_is_not_working(builtin_cases, tmp_path: Path) -> None:
    case = limited(builtin_cases[0], working_s=0.3, ceiling_s=1.2)
    agent = ToolAgent("m", ReferenceSettings())
    stalled = agent.run(case, None, SlowModel(0.1, waits=True), 1, tmp_path / "a.jsonl")
    assert stalled.ended_by == "infra_error" and "ceiling of 1 s" in stalled.reason  # never a timeout
    assert stalled.steps >= 10  # it kept working for the whole ceiling: 0.3 s of limit did not stop it
    busy = agent.run(case, None, SlowModel(0.1, waits=False), 1, tmp_path / "b.jsonl")
    assert busy.ended_by == "timeout" and busy.steps <= 5  # generation time is the agent's


def test_clock_parts_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    now, waited = [1000.0], [0.0]  # a clock that moves only when the test says (no window on a loaded machine)
    monkeypatch.setattr(working_clock, "time", SimpleNamespace(monotonic=lambda: now[0]))
    clock = WorkingClock(10, None, lambda: waited[0])
    assert clock.ceiling_s == 610  # default: at least 600 s more than the limit
    now[0] += 0.2
    waited[0] = 0.15
    assert (clock.elapsed_s(), clock.waiting_s(), clock.working_s()) == pytest.approx((0.2, 0.15, 0.05))
    assert clock.verdict() is None
    now[0] += 10  # 10.05 s of work: past the limit
    assert clock.verdict() == "timeout"
    waited[0] += 600  # the same clock time, but almost all of it waiting: no timeout, and below the ceiling
    assert clock.working_s() == pytest.approx(0.0) and clock.verdict() is None
    now[0] += 600  # 610.2 s on the clock: past the ceiling, whatever the waiting
    waited[0] += 600
    assert clock.verdict() == "infra_error"


def run_night(specs: list[TrialSpec], config: SimulatorConfig, timeout_s: float) -> dict[str, object]:
    with running_simulator(config, [BUILTIN]) as url:
        gateway = ModelGateway(url, "sk-test", timeout_s=timeout_s, max_retries=8,
                               backoff=BackoffWait(initial_s=0.05, max_s=0.2))
        ctx = TrialContext(run_dir=Path(specs[0].run_id), backend=BubblewrapBackend(), gateway=gateway,
                           limits=SandboxLimits(), grader=CaseGrader(hidden_seed=7))
        with ThreadPoolExecutor(4) as pool:
            return {r.trial_id: r for r in pool.map(lambda s: execute_trial(s, ctx), specs)}


@pytest.mark.timeout(600)
def test_endpoint_timeouts_do_not_change_statuses(tmp_path: Path) -> None:
    cases = {c.id: c for c in load_cases(BUILTIN)}
    specs = [TrialSpec(trial_id=f"{cid}-{v}-{seed}", run_id=str(tmp_path / "run"), case=cases[cid],
                       variant=Variant(name=v, model=f"sim-{v}"), seed=seed, model_version=f"sim-{v}")
             for cid in CASES for v in ("strong", "weak") for seed in (1,)]
    healthy = run_night(specs, SimulatorConfig(latency_ms=5), timeout_s=30)
    assert all(r.status.value != "infra_error" for r in healthy.values()), {r.reason for r in healthy.values()}
    # the limit: 1.5 × the longest fault-free working time (the machine is noisy); two stalls are more
    limit = 1.5 * max(r.working_s for r in healthy.values()) + 1.0
    stall_s = limit / 2 + 0.5
    specs = [s.model_copy(update={"case": limited(s.case, limit, steps=s.case.limits.max_steps)}) for s in specs]
    faulty = run_night(specs, SimulatorConfig(latency_ms=5, faults={"timeout": 0.3}, hang_s=30, seed=3),
                       timeout_s=stall_s)
    assert {t: r.status for t, r in faulty.items()} == {t: r.status for t, r in healthy.items()}, {
        t: (r.reason, r.working_s, r.waiting_s, r.agent_s, limit) for t, r in faulty.items()}
    assert all(r.steps == healthy[t].steps for t, r in faulty.items())
    waited = [r for r in faulty.values() if r.agent_s > limit]
    assert waited, "no trial waited past its limit: the faults did not test anything"
    for r in waited:
        assert r.waiting_s >= stall_s and r.working_s <= limit
