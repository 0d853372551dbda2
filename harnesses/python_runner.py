"""Run a Python harness (the reference loop or a user's class) under nightshift's limits, in its own thread.

The harness gets what the reference loop gets: the case, the sandbox (exec/read/write, time-limited),
a model client (the trial's gateway session behind its LimitGuard), the seed and the trajectory path.
How its run ends is decided here, not by the harness:

* it returns an AgentOutcome → that outcome, unless a limit was reached first (the limit wins);
* it raises LimitReached (the model client's, or its own with a limit status) → that limit's status;
  GatewayError → infra_error (the endpoint, not the agent) when a gateway call really failed, except
  RequestRejected (its own request was invalid or too large) → agent_error; the trial's sandbox failing under
  it (exec raising, a file call failing other than by refusing the path) → infra_error, whatever it returns;
  a GatewayError or SandboxError it raises on its own, with nothing failed → agent_error;
* it raises anything else, or returns something else → agent_error, traceback in the trajectory;
* it is still running when its working time is used up → HarnessStopped is raised inside its thread and
  every further model or sandbox call refuses; the trial ends `timeout` either way. Time spent waiting on
  the endpoint is not working time (harnesses/limits.py); at the clock-time ceiling it ends infra_error.
  A thread stuck in C code cannot be interrupted: it is left behind (daemon), and its sandbox is
  destroyed under it.
"""

from __future__ import annotations

import ctypes
import threading
import time
import traceback
from pathlib import Path

from nightshift.errors import GatewayError, LimitReached, RequestRejected
from nightshift.gateway import GatewaySession
from nightshift.harnesses.limits import (
    GuardedSandbox,
    HarnessStopped,
    LimitedModel,
    LimitGuard,
    TrialLimits,
)
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import AgentOutcome, Case
from nightshift.trajectory import append_event

HARNESS_LIMITS = ("step_limit", "timeout", "token_limit", "cost_limit")  # statuses a harness may end itself with
STOP_GRACE_S = 5.0  # how long a stopped harness thread gets to unwind before it is abandoned
POLL_S = 0.5  # how often the working clock is read while the harness runs


def _raise_in(thread: threading.Thread, exc_type: type[BaseException]) -> None:
    """Ask the interpreter to raise exc_type in `thread` at its next bytecode (CPython's async exception)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(exc_type))


def run_python_harness(resolved: ResolvedHarness, model: str, case: Case, sandbox, session: GatewaySession,
                       seed: int, trajectory: Path, limits: TrialLimits) -> AgentOutcome:
    guard = LimitGuard(limits, session)
    box: dict = {}

    def body() -> None:
        try:
            agent = resolved.target(model, resolved.settings)
            box["outcome"] = agent.run(case, GuardedSandbox(sandbox, guard), LimitedModel(session, guard), seed,
                                       trajectory)
        except BaseException as exc:  # noqa: BLE001 - every way out of user code is sorted below
            box["error"], box["traceback"] = exc, traceback.format_exc()

    thread = threading.Thread(target=body, name=f"harness-{case.id}", daemon=True)
    thread.start()
    while True:
        thread.join(max(0.01, min(POLL_S, guard.remaining_s())))
        if not thread.is_alive():
            guard.expired()  # a harness that returned past its working time still ends `timeout`
            return _outcome(box, guard, trajectory)
        ended = guard.expired()
        if ended is not None:
            break
    guard.stopped.set()
    _raise_in(thread, HarnessStopped)
    thread.join(STOP_GRACE_S)
    left = " (its thread did not stop and was abandoned)" if thread.is_alive() else ""
    reason = f"{ended.reason}; the harness was stopped{left}"
    append_event(trajectory, ended.status, reason=reason, calls=guard.calls,
                 working_s=round(guard.clock.working_s(), 3), waiting_s=round(guard.clock.waiting_s(), 3))
    return AgentOutcome(ended_by=ended.status, steps=guard.calls, reason=reason)


def _outcome(box: dict, guard: LimitGuard, trajectory: Path) -> AgentOutcome:
    error = box.get("error")
    # infrastructure only when nightshift saw it fail: a GatewayError from a call the gateway really failed, or
    # the trial's sandbox failing under the harness (one the harness raises on its own is its own error)
    failed_call = guard.gateway_error is not None and isinstance(error, GatewayError) \
        and not isinstance(error, RequestRejected)
    if guard.sandbox_error is not None:
        reason = f"the sandbox failed under the harness: {type(guard.sandbox_error).__name__}: {guard.sandbox_error}"
        append_event(trajectory, "infra_error", error=reason, kind="sandbox")
        return AgentOutcome(ended_by="infra_error", steps=guard.calls, reason=reason[:500])
    if guard.hit is not None and not failed_call:
        append_event(trajectory, guard.hit.status, reason=guard.hit.reason, calls=guard.calls)
        return AgentOutcome(ended_by=guard.hit.status, steps=guard.calls, reason=guard.hit.reason)
    if failed_call:
        append_event(trajectory, "infra_error", error=str(error))
        return AgentOutcome(ended_by="infra_error", steps=guard.calls, reason=str(error)[:500])
    if isinstance(error, HarnessStopped):
        return AgentOutcome(ended_by="timeout", steps=guard.calls, reason="harness stopped at its time limit")
    if isinstance(error, LimitReached) and error.status in HARNESS_LIMITS:  # the harness's own limit, a failure
        append_event(trajectory, error.status, reason=error.reason, calls=guard.calls, raised_by="harness")
        return AgentOutcome(ended_by=error.status, steps=guard.calls, reason=f"harness: {error.reason}"[:500])
    if error is not None:
        append_event(trajectory, "agent_error", error=f"{type(error).__name__}: {error}",
                     traceback=box["traceback"], at=time.time())
        return AgentOutcome(ended_by="agent_error", steps=guard.calls,
                            reason=f"harness raised {type(error).__name__}: {error}"[:500])
    outcome = box.get("outcome")
    if not isinstance(outcome, AgentOutcome):
        reason = f"harness returned {type(outcome).__name__}, not nightshift.models.AgentOutcome"
        append_event(trajectory, "agent_error", error=reason)
        return AgentOutcome(ended_by="agent_error", steps=guard.calls, reason=reason)
    if outcome.ended_by == "infra_error" and guard.gateway_error is None:
        # infra errors are left out of scores: only nightshift's own machinery may claim one
        reason = f"harness reported infra_error ({outcome.reason[:200]}) but no gateway call failed"
        append_event(trajectory, "agent_error", error=reason)
        return AgentOutcome(ended_by="agent_error", steps=guard.calls, reason=reason)
    return outcome.model_copy(update={"steps": outcome.steps or guard.calls})
