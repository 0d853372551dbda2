"""The limits nightshift enforces around every harness, whatever its kind: steps, wall clock, tokens, cost.

A harness is not trusted to stop itself. Every model call goes through a `LimitGuard` (in the model
client a Python harness gets, and in the proxy a command harness talks to): the call past the step
limit is refused, a call that takes the trial past its token or cost budget ends it, and a call after
the wall clock is refused. The first limit reached is kept ("sticky"): a harness that catches the
error and carries on still ends with that limit's status.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from nightshift.experiment.config import Variant
from nightshift.gateway import GatewayError, GatewaySession
from nightshift.models import Case, ExecResult


class LimitReached(Exception):  # noqa: N818 - it is an outcome, not an error of ours
    """A trial limit was reached; `status` is the trial status it ends with (step_limit, token_limit, ...)."""

    def __init__(self, status: str, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


class HarnessStopped(BaseException):  # noqa: N818 - BaseException: `except Exception` in harness code must not eat it
    """Raised inside a harness that overran its wall clock (injected into its thread, and by every call after)."""


@dataclass(frozen=True)
class TrialLimits:
    max_calls: int
    wall_clock_s: float
    max_tokens: int | None = None
    max_cost_usd: float | None = None

    @classmethod
    def of(cls, variant: Variant, case: Case) -> TrialLimits:
        settings_steps = variant.harness.settings.get("max_steps") if variant.harness.kind == "reference" else None
        return cls(max_calls=variant.harness.max_steps or settings_steps or case.limits.max_steps,
                   wall_clock_s=case.limits.wall_clock_s, max_tokens=variant.max_tokens,
                   max_cost_usd=variant.max_cost_usd)


class LimitGuard:
    """Counts one trial's model calls and checks its budget before and after each (thread-safe)."""

    def __init__(self, limits: TrialLimits, session: GatewaySession):
        self.limits = limits
        self.session = session
        self.deadline = time.monotonic() + limits.wall_clock_s
        self.calls = 0
        self.hit: LimitReached | None = None
        self.gateway_error: Exception | None = None  # set when the gateway itself failed a call
        self.stopped = threading.Event()
        self._lock = threading.Lock()

    def remaining_s(self) -> float:
        # working time, not waiting time: what the endpoint made the trial wait is not the agent's (issue 18)
        return self.deadline + self.session.waiting_s - time.monotonic()

    def _reach(self, status: str, reason: str) -> LimitReached:
        with self._lock:
            if self.hit is None:
                self.hit = LimitReached(status, reason)
            return self.hit

    def before_call(self) -> None:
        """Raise the limit this call would break; else count it."""
        if self.stopped.is_set() or self.remaining_s() <= 0:
            raise self._reach("timeout", f"model call after the {self.limits.wall_clock_s:g}s wall clock")
        if self.hit is not None:
            raise self.hit
        self._check_budget()
        with self._lock:
            if self.calls >= self.limits.max_calls:
                over = True
            else:
                self.calls += 1
                over = False
        if over:
            raise self._reach("step_limit", f"model call {self.limits.max_calls + 1} refused: the trial's step "
                              f"limit is {self.limits.max_calls} model calls")

    def after_call(self) -> None:
        """A call that took the trial past its token or cost budget ends the trial."""
        self._check_budget()

    def _check_budget(self) -> None:
        lim, s = self.limits, self.session
        tokens = s.input_tokens + s.output_tokens
        if lim.max_tokens is not None and tokens >= lim.max_tokens:
            raise self._reach("token_limit", f"{tokens} tokens used; the variant's max_tokens is {lim.max_tokens}")
        if lim.max_cost_usd is not None and s.cost_usd >= lim.max_cost_usd:
            raise self._reach("cost_limit", f"${s.cost_usd:.6f} spent; the variant's max_cost_usd is "
                              f"${lim.max_cost_usd:g}")


class LimitedModel:
    """The ModelClient a Python harness gets: the trial's gateway session behind its LimitGuard."""

    def __init__(self, session: GatewaySession, guard: LimitGuard):
        self._session = session
        self._guard = guard

    def chat(self, *, model: str, messages: list[dict], tools: list[dict], temperature: float = 0.0,
             seed: int = 0, max_tokens: int = 1024) -> dict:
        self._guard.before_call()
        try:
            reply = self._session.chat(model=model, messages=messages, tools=tools, temperature=temperature,
                                       seed=seed, max_tokens=max_tokens)
        except GatewayError as exc:
            self._guard.gateway_error = exc
            raise
        self._guard.after_call()
        return reply


class GuardedSandbox:
    """The sandbox a Python harness gets: every exec ends by the wall clock, none starts after it."""

    def __init__(self, sandbox, guard: LimitGuard):
        self._sandbox = sandbox
        self._guard = guard
        self.id = sandbox.id

    def _check(self) -> None:
        if self._guard.stopped.is_set() or self._guard.remaining_s() <= 0:
            raise HarnessStopped("the trial's wall clock is over")

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult:
        self._check()
        return self._sandbox.exec(command, timeout_s=max(0.1, min(timeout_s, self._guard.remaining_s())),
                                  cwd=cwd, env=env)

    def write_file(self, path: str, data: bytes) -> None:
        self._check()
        self._sandbox.write_file(path, data)

    def read_file(self, path: str) -> bytes:
        self._check()
        return self._sandbox.read_file(path)
