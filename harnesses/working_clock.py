"""Working time, not waiting time: the clock a harness's time limit reads.

A trial's time limit counts the agent's own work — its sandbox commands and the generation time of its
successful model calls — not time spent waiting on the endpoint (the quota, backoff sleeps between
retries, 429 pauses, calls that timed out or failed). The gateway session knows which is which and adds
every wait to ``waiting_s``; this clock subtracts it. A separate, generous clock-time ceiling still bounds
a trial, and reaching it while the working time is under the limit is the endpoint's fault: infra_error.
(Inspect draws the same line between its ``working_limit`` and its clock time.)
"""

from __future__ import annotations

import time
from collections.abc import Callable

CEILING_FACTOR = 4.0
"""The clock-time ceiling, when a case does not state one: this many times its working-time limit ..."""
CEILING_MIN_EXTRA_S = 600.0
"""... and at least this much longer than it."""


def default_ceiling(limit_s: float) -> float:
    return max(limit_s * CEILING_FACTOR, limit_s + CEILING_MIN_EXTRA_S)


def waiting_of(model: object) -> Callable[[], float]:
    """How to read a model client's endpoint waiting time (0 for a client that does not track it)."""
    return lambda: float(getattr(model, "waiting_s", 0.0) or 0.0)


class WorkingClock:
    """Working time = clock time since start minus endpoint waiting since start."""

    def __init__(self, limit_s: float, ceiling_s: float | None, waiting: Callable[[], float]):
        self.limit_s = limit_s
        self.ceiling_s = ceiling_s if ceiling_s is not None else default_ceiling(limit_s)
        self._waiting = waiting
        self._t0 = time.monotonic()
        self._w0 = waiting()

    def elapsed_s(self) -> float:
        return time.monotonic() - self._t0

    def waiting_s(self) -> float:
        return max(0.0, self._waiting() - self._w0)

    def working_s(self) -> float:
        return max(0.0, self.elapsed_s() - self.waiting_s())

    def verdict(self) -> str | None:
        """None while the trial may go on; 'timeout' when the agent's own work used up the limit;
        'infra_error' when the clock-time ceiling came first (the rest was waiting on the endpoint)."""
        if self.working_s() > self.limit_s:
            return "timeout"
        if self.elapsed_s() > self.ceiling_s:
            return "infra_error"
        return None

    def reason(self, verdict: str) -> str:
        if verdict == "timeout":
            return f"agent working time exceeded {self.limit_s:.0f} s"
        return (f"clock-time ceiling of {self.ceiling_s:.0f} s reached after {self.working_s():.1f} s of agent "
                f"work and {self.waiting_s():.1f} s waiting on the model endpoint")

    def remaining_s(self) -> float:
        """Seconds a command may still run before either the working limit or the ceiling is reached."""
        return min(self.limit_s - self.working_s(), self.ceiling_s - self.elapsed_s())
