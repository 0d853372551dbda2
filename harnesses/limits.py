"""The limits nightshift enforces around every harness, whatever its kind: steps, wall clock, tokens, cost.

A harness is not trusted to stop itself. Every model call goes through a `LimitGuard` (in the model
client a Python harness gets, and in the proxy a command harness talks to): the call past the step
limit is refused, a call that takes the trial past its token or cost budget ends it, and a call after
the time limit is refused. The first limit reached is kept ("sticky"): a harness that catches the
error and carries on still ends with that limit's status.

The time limit is *working* time (harnesses/working_clock.py): what the endpoint made the trial wait
(quota, backoff, failed calls) is not the agent's. A call still in flight is neither until it ends, so a
trial is never stopped for time in the middle of a model call unless its work before that call already
used up the limit; the clock-time ceiling bounds everything, and reaching it first is infra_error.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from nightshift.errors import GatewayError, LimitReached, RequestRejected
from nightshift.experiment.config import Variant
from nightshift.gateway import GatewaySession
from nightshift.harnesses.working_clock import WorkingClock, waiting_of
from nightshift.models import Case, ExecResult
from nightshift.sandbox.paths import SandboxPathError


class HarnessStopped(BaseException):  # noqa: N818 - BaseException: `except Exception` in harness code must not eat it
    """Raised inside a harness that overran its wall clock (injected into its thread, and by every call after)."""


@dataclass(frozen=True)
class TrialLimits:
    max_calls: int
    wall_clock_s: float  # working seconds (waiting on the endpoint excluded)
    max_tokens: int | None = None
    max_cost_usd: float | None = None
    clock_ceiling_s: float | None = None  # clock seconds; None: working_clock.default_ceiling

    @classmethod
    def of(cls, variant: Variant, case: Case) -> TrialLimits:
        settings_steps = variant.harness.settings.get("max_steps") if variant.harness.kind == "reference" else None
        return cls(max_calls=variant.harness.max_steps or settings_steps or case.limits.max_steps,
                   wall_clock_s=case.limits.wall_clock_s, max_tokens=variant.max_tokens,
                   max_cost_usd=variant.max_cost_usd, clock_ceiling_s=case.limits.clock_ceiling_s)


class LimitGuard:
    """Counts one trial's model calls and checks its budget before and after each (thread-safe)."""

    def __init__(self, limits: TrialLimits, session: GatewaySession):
        self.limits = limits
        self.session = session
        self.clock = WorkingClock(limits.wall_clock_s, limits.clock_ceiling_s, waiting_of(session))
        self.calls = 0
        self.hit: LimitReached | None = None
        self.gateway_error: Exception | None = None  # set when the gateway itself failed a call
        self.sandbox_error: Exception | None = None  # set when the trial's sandbox itself failed a call
        self.stopped = threading.Event()
        self._open: dict[int, float] = {}  # model calls in flight: ticket -> start (monotonic)
        self._tickets = 0
        self._lock = threading.Lock()

    def remaining_s(self) -> float:
        """Seconds a sandbox command may still run before the working limit or the ceiling."""
        return self.clock.remaining_s()

    def _reach(self, status: str, reason: str) -> LimitReached:
        with self._lock:
            if self.hit is None:
                self.hit = LimitReached(status, reason)
            return self.hit

    def expired(self) -> LimitReached | None:
        """The time limit this trial has reached (timeout, or infra_error at the ceiling), else None."""
        if self.hit is not None:
            return self.hit
        clock = self.clock
        with self._lock:
            since = min(self._open.values(), default=None)
        in_flight = time.monotonic() - since if since is not None else 0.0
        if clock.working_s() - in_flight > clock.limit_s:
            return self._reach("timeout", clock.reason("timeout"))
        if clock.elapsed_s() > clock.ceiling_s:
            return self._reach("infra_error", clock.reason("infra_error"))
        return None

    def before_call(self) -> int:
        """Raise the limit this call would break; else count it and return its ticket for `end_call`."""
        ended = self.expired()
        if ended is not None:
            raise ended
        if self.stopped.is_set():
            raise self._reach("timeout", f"model call after the {self.limits.wall_clock_s:g}s working-time limit")
        self._check_budget()
        with self._lock:
            over = self.calls >= self.limits.max_calls
            if not over:
                self.calls += 1
                self._tickets += 1
                self._open[self._tickets] = time.monotonic()
                return self._tickets
        raise self._reach("step_limit", f"model call {self.limits.max_calls + 1} refused: the trial's step "
                          f"limit is {self.limits.max_calls} model calls")

    def end_call(self, ticket: int) -> None:
        """The call is over (answered or failed): its time now counts as working or waiting."""
        with self._lock:
            self._open.pop(ticket, None)

    def after_call(self) -> None:
        """A call that took the trial past its token or cost budget, or its working time, ends the trial."""
        self._check_budget()
        ended = self.expired()
        if ended is not None:
            raise ended

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

    @property
    def waiting_s(self) -> float:
        """The session's endpoint waiting, so a harness's own working clock reads it too (the reference loop's)."""
        return float(getattr(self._session, "waiting_s", 0.0) or 0.0)

    def chat(self, *, model: str, messages: list[dict], tools: list[dict], temperature: float = 0.0,
             seed: int = 0, max_tokens: int = 1024) -> dict:
        ticket = self._guard.before_call()
        try:
            reply = self._session.chat(model=model, messages=messages, tools=tools, temperature=temperature,
                                       seed=seed, max_tokens=max_tokens)
        except RequestRejected:
            raise  # the harness's own request: not a gateway failure it may report as infra_error
        except GatewayError as exc:
            self._guard.gateway_error = exc
            raise
        finally:
            self._guard.end_call(ticket)
        self._guard.after_call()
        return reply


class GuardedSandbox:
    """The sandbox a Python harness gets: every exec ends by the time limit, none starts after it."""

    def __init__(self, sandbox, guard: LimitGuard):
        self._sandbox = sandbox
        self._guard = guard
        self.id = sandbox.id

    def _check(self) -> None:
        if self._guard.stopped.is_set() or self._guard.expired() is not None:
            raise HarnessStopped("the trial's time limit is over")

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult:
        self._check()
        try:  # exec never raises for what a command holds: anything it raises is the sandbox's own failure
            return self._sandbox.exec(command, timeout_s=max(0.1, min(timeout_s, self._guard.remaining_s())),
                                      cwd=cwd, env=env)
        except Exception as exc:
            self._guard.sandbox_error = self._guard.sandbox_error or exc
            raise

    def write_file(self, path: str, data: bytes) -> None:
        self._check()
        self._files("write_file", path, data)

    def read_file(self, path: str) -> bytes:
        self._check()
        return self._files("read_file", path)

    def _files(self, method: str, *args):
        """A path the sandbox refuses (outside /workspace, not a regular file, too big) is the harness's doing;
        any other failure is the sandbox's own."""
        try:
            return getattr(self._sandbox, method)(*args)
        except SandboxPathError:
            raise
        except Exception as exc:
            self._guard.sandbox_error = self._guard.sandbox_error or exc
            raise
