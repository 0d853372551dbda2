"""The ETA of a night in flight: the planner's model run over what is left, calibrated by what has ended.

Trials start in order whenever a slot frees (ThreadPoolTaskRunner is a FIFO thread pool), so the
clock knows which trials are running and since when from the completions alone: trial ``i`` of the
order starts at time 0 if ``i < concurrency``, else at the ``(i - concurrency + 1)``-th completion.
The ETA simulates the running trials (what their predictions say is left) and the pending ones,
every prediction scaled by actual / predicted slot time of the trials that ended here (cache hits,
which end at once, are not evidence of speed and are left out) and of those still running (at least
what they have run so far). The scale starts at 1 and moves with the evidence: predictions from history
count as ``prior_weight`` of the night's predicted work run exactly as predicted. That matters because
longest-first runs the trials predicted longest first, and those are the ones most likely to have been
over-predicted: unshrunk, the first trials to end would make every ETA early.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from nightshift.planner.model import Capacity, TrialLoad, simulate

MIN_EVIDENCE = 5


class NightClock:
    """Tracks one night's completions and predicts its end."""

    def __init__(self, loads: Sequence[TrialLoad], capacity: Capacity, started: float | None = None,
                 prior_weight: float = 0.25) -> None:
        """``prior_weight``: 0 when ``loads`` are placeholders (no history), so only this night's trials count."""
        self.loads = list(loads)
        self.prior_s = prior_weight * sum(t.duration_s for t in self.loads)
        self.capacity = capacity
        self.started = time.monotonic() if started is None else started
        self.done: set[int] = set()
        self.completions: list[float] = []
        self._actual = 0.0
        self._predicted = 0.0
        self.estimates: list[tuple[float, int, float]] = []
        """(when, trials done, seconds left) of every ETA given, to check the model afterwards."""

    def start_of(self, index: int) -> float | None:
        """When trial ``index`` of the order started (None: not yet)."""
        c = max(1, self.capacity.concurrency)
        if index < c:
            return self.started
        return self.completions[index - c] if index - c < len(self.completions) else None

    def finished(self, index: int, now: float | None = None, recorded_s: float | None = None,
                 cached: bool = False) -> None:
        """Trial ``index`` of the order ended; ``recorded_s`` is the duration its result row states (a row
        much longer than the slot time is a cache hit); ``cached``: it had ended before this night began."""
        now = time.monotonic() if now is None else now
        start = self.start_of(index)
        self.done.add(index)
        self.completions.append(now)
        slot_s = now - start if start is not None else None
        cached = cached or (recorded_s is not None and slot_s is not None and slot_s < 0.5 * recorded_s)
        if slot_s is not None and not cached:
            self._actual += slot_s
            self._predicted += self.loads[index].duration_s

    def _running(self) -> list[int]:
        started = min(len(self.loads), len(self.done) + max(1, self.capacity.concurrency))
        return [i for i in range(started) if i not in self.done]

    def scale(self, now: float | None = None) -> float:
        """Actual / predicted slot time (1 until enough trials have ended here). With ``now``, trials still
        running count too, at least as long as they have run: the first trials to end are the ones that ran
        short, and without them the scale would start low."""
        if not self.prior_s and (len(self.done) < min(MIN_EVIDENCE, len(self.loads)) or self._predicted <= 0):
            return 1.0
        actual, predicted = self._actual + self.prior_s, self._predicted + self.prior_s
        if now is not None:
            k = actual / predicted
            for i in self._running():
                start, pred = self.start_of(i), self.loads[i].duration_s
                actual += max(now - (start if start is not None else now), pred * k)
                predicted += pred
        return actual / predicted

    def remaining_s(self, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        k = self.scale(now)
        started = min(len(self.loads), len(self.done) + max(1, self.capacity.concurrency))
        running = []
        for i in self._running():
            load, start = self.loads[i], self.start_of(i) or now
            expected = load.duration_s * k
            left = max(expected - (now - start), 0.0)
            part = left / expected if expected > 0 else 0.0
            running.append(TrialLoad(left, load.tokens * part, load.requests * part, load.gpu_s * k * part))
        pending = [TrialLoad(t.duration_s * k, t.tokens, t.requests, t.gpu_s * k) for t in self.loads[started:]]
        return simulate(pending, self.capacity, running).makespan_s

    def line(self, now: float | None = None) -> str:
        """'trials done: 40/104, ETA 12:31 UTC (in 1m05s)' for the progress artifact and the log."""
        now = time.monotonic() if now is None else now
        total, done = len(self.loads), len(self.done)
        if done >= total:
            return f"trials done: {done}/{total} in {now - self.started:.0f}s"
        left = self.remaining_s(now)
        self.estimates.append((now, done, left))
        eta = datetime.now(UTC) + timedelta(seconds=left)
        hours, rest = divmod(int(left), 3600)
        span = f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"
        return (f"trials done: {done}/{total}, ETA {eta:%H:%M} UTC (in {span}; planner, trials take "
                f"×{self.scale(now):.2f} their prediction)")
