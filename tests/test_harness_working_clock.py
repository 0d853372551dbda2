"""The harness runner's time limit is working time: waiting on the endpoint does not use it up (issue 18).

No sandbox and no endpoint here: a session whose calls wait (the way the gateway accounts a quota wait,
a backoff sleep or a timed-out attempt) and a harness that works, so each rule is seen on its own.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses.limits import TrialLimits
from nightshift.harnesses.python_runner import run_python_harness
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import AgentOutcome, Case, CaseLimits

REPLY = {"message": {"role": "assistant", "content": "ok"}, "model": "m", "finish_reason": "stop"}


class WaitingSession:
    """Each call takes `wait_s` of endpoint waiting (accounted when it ends, as the gateway does) plus
    `generate_s` of generation (working time)."""

    def __init__(self, wait_s: float = 0.0, generate_s: float = 0.0):
        self.wait_s, self.generate_s = wait_s, generate_s
        self.waiting_s = 0.0
        self.input_tokens = self.output_tokens = 0
        self.cost_usd = 0.0
        self.lock = threading.Lock()

    def chat(self, **_) -> dict:
        time.sleep(self.wait_s + self.generate_s)
        with self.lock:
            self.waiting_s += self.wait_s
        return REPLY


class NoSandbox:
    id = "none"


class Calls:
    """Makes `n` model calls, then submits."""

    n = 4

    def __init__(self, model: str, settings) -> None:
        self.model = model

    def run(self, case, sandbox, model, seed, trajectory) -> AgentOutcome:
        for _ in range(self.n):
            model.chat(model=self.model, messages=[], tools=[])
        return AgentOutcome(ended_by="submitted", steps=self.n)


class Works(Calls):
    """Works (no model call) for longer than any limit here: 200 slices of 50 ms, at least 10 s whatever the load."""

    slices = 0

    def run(self, case, sandbox, model, seed, trajectory) -> AgentOutcome:
        for _ in range(200):
            time.sleep(0.05)
            Works.slices += 1
        return AgentOutcome(ended_by="submitted", steps=0)


class ManyCalls(Calls):
    n = 10


class OneSlowCall(Calls):
    n = 1


def run(tmp_path: Path, harness: type, session: WaitingSession, limit_s: float, ceiling_s: float | None = None
        ) -> tuple[AgentOutcome, float]:
    case = Case(id="c", suite="s", domain="d", instruction="x", root=tmp_path, fail_to_pass=[], content_hash="0",
                limits=CaseLimits(wall_clock_s=limit_s, clock_ceiling_s=ceiling_s))
    resolved = ResolvedHarness(spec=HarnessSpec(kind="python", entrypoint="t:T"), target=harness, settings=None)
    limits = TrialLimits(max_calls=50, wall_clock_s=limit_s, clock_ceiling_s=ceiling_s)
    started = time.monotonic()
    outcome = run_python_harness(resolved, "m", case, sandbox=NoSandbox(), session=session, seed=1,
                                 trajectory=tmp_path / "t.jsonl", limits=limits)
    return outcome, time.monotonic() - started


def test_waiting_on_the_endpoint_past_the_limit_is_not_a_timeout(tmp_path) -> None:
    # 4 calls x 0.8 s of waiting = 3.2 s of clock, 1.5 s limit: the agent itself did almost nothing
    outcome, took = run(tmp_path, Calls, WaitingSession(wait_s=0.8), limit_s=1.5)
    assert outcome.ended_by == "submitted", outcome.reason
    assert took > 3.0


def test_working_past_the_limit_is_a_timeout_soon_after_it(tmp_path) -> None:
    """Stopped, not waited for: the harness's own 10 s of work is cut short (how soon after the 1 s limit is a
    figure of bench/timing_claims.py, not a window here)."""
    Works.slices = 0
    outcome, took = run(tmp_path, Works, WaitingSession(), limit_s=1.0)
    assert outcome.ended_by == "timeout" and "working time" in outcome.reason
    assert took >= 1.0 and Works.slices < 200  # after the limit, before the harness's own end
    at_return = Works.slices
    time.sleep(0.3)
    assert Works.slices == at_return and "abandoned" not in outcome.reason  # its thread was stopped, not left


def test_a_generation_that_runs_past_the_limit_ends_the_trial_when_it_returns(tmp_path) -> None:
    # generation is the agent's time: not cut mid-call, but the trial is over once the reply is in
    outcome, took = run(tmp_path, OneSlowCall, WaitingSession(generate_s=2.0), limit_s=1.0)
    assert outcome.ended_by == "timeout", outcome.reason
    assert took >= 2.0


def test_the_clock_ceiling_reached_while_waiting_is_infra_error(tmp_path) -> None:
    session = WaitingSession(wait_s=1.0)  # 10 calls: 10 s of waiting, past the 2.5 s ceiling
    outcome, took = run(tmp_path, ManyCalls, session, limit_s=1.5, ceiling_s=2.5)
    assert outcome.ended_by == "infra_error" and "ceiling" in outcome.reason, outcome.reason
    assert took >= 2.5 and session.waiting_s < 10  # not before the ceiling, and not at the harness's own end


class RejectingSession(WaitingSession):
    def chat(self, **_) -> dict:
        from nightshift.errors import RequestRejected

        raise RequestRejected("a request of about 1000000001 tokens exceeds the key's 4000000 tokens/min")


class ClaimsInfra(Calls):
    """Catches the rejection and claims the endpoint failed."""

    def run(self, case, sandbox, model, seed, trajectory) -> AgentOutcome:
        from nightshift.errors import GatewayError

        try:
            model.chat(model=self.model, messages=[], tools=[])
        except GatewayError as exc:
            return AgentOutcome(ended_by="infra_error", reason=str(exc))
        return AgentOutcome(ended_by="submitted")


def test_a_request_the_harness_made_too_large_is_its_own_error_not_infra(tmp_path) -> None:
    raised, _ = run(tmp_path / "raised", OneSlowCall, RejectingSession(), limit_s=10)
    assert raised.ended_by == "agent_error" and "RequestRejected" in raised.reason
    claimed, _ = run(tmp_path / "claimed", ClaimsInfra, RejectingSession(), limit_s=10)
    assert claimed.ended_by == "agent_error" and "no gateway call failed" in claimed.reason
