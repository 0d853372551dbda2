"""The night model: trials (``TrialLoad``) on slots, a quota and cards (``Capacity``) → bounds and a forecast.

Two answers, from the same inputs:

* ``lower_bounds``: no schedule can beat any of total work / concurrency, the longest trial, total
  tokens / tokens-per-minute, total requests / requests-per-minute, or total GPU seconds / cards.
  The largest is the *binding constraint*.
* ``simulate``: a fluid simulation of the night as nightshift runs it. Trials start in the given
  order whenever one of ``concurrency`` slots frees (a FIFO thread pool does exactly that). While
  running, a trial at full speed asks for its tokens, requests and GPU time evenly over its
  duration; when the running trials together ask for more than the quota (or the cards) give, all of
  them slow down by the same factor, as the gateway's token buckets make them. Every running trial
  progresses at one common speed, so one progress clock and a heap of finish points make it
  O(n log c): 5,000 trials take a few milliseconds.

Seconds throughout; quotas per minute, as providers state them.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

_EPS = 1e-9


@dataclass(frozen=True)
class TrialLoad:
    """What one trial is predicted to take at full speed."""

    duration_s: float
    """Wall-clock seconds, model latency included, quota waits excluded."""
    tokens: float = 0.0
    """Tokens it charges against the tokens/min quota."""
    requests: float = 0.0
    """Model requests it sends."""
    gpu_s: float = 0.0
    """Seconds of its duration it holds one timing slot exclusively (a GPU card or a reserved CPU core)."""


@dataclass(frozen=True)
class Capacity:
    """What the night may use at once."""

    concurrency: int
    """Trials in flight at once (across every shard and machine)."""
    requests_per_minute: float | None = None
    """The key's requests/min (times the share used); None: not a constraint."""
    tokens_per_minute: float | None = None
    """The key's tokens/min (times the share used); None: not a constraint."""
    gpu_cards: int = 0
    """Cards for timing steps, one trial at a time each."""

    def with_concurrency(self, concurrency: int) -> Capacity:
        return Capacity(concurrency, self.requests_per_minute, self.tokens_per_minute, self.gpu_cards)


@dataclass
class Simulation:
    """What the fluid simulation of a night found."""

    makespan_s: float
    finish_s: list[float]
    """Finish time of each trial of ``loads``, in their order."""
    slowed_s: dict[str, float] = field(default_factory=dict)
    """Seconds during which each constraint held the running trials below full speed."""


def lower_bounds(loads: Sequence[TrialLoad], capacity: Capacity) -> dict[str, float]:
    """Seconds no schedule can beat, per constraint; a GPU need without cards is ``inf``."""
    if not loads:
        return {"concurrency": 0.0}
    bounds = {"concurrency": sum(t.duration_s for t in loads) / capacity.concurrency,
              "longest trial": max(t.duration_s for t in loads)}
    if capacity.tokens_per_minute:
        bounds["tokens/min"] = 60 * sum(t.tokens for t in loads) / capacity.tokens_per_minute
    if capacity.requests_per_minute:
        bounds["requests/min"] = 60 * sum(t.requests for t in loads) / capacity.requests_per_minute
    gpu = sum(t.gpu_s for t in loads)
    if gpu > 0:
        bounds["timing slots"] = gpu / capacity.gpu_cards if capacity.gpu_cards else math.inf
    return bounds


def _speed(demand: list[float], capacity: Capacity) -> tuple[float, str | None]:
    """Common speed of the running trials (≤ 1) and the constraint that sets it (None at full speed)."""
    tokens, requests, gpu = demand
    speed, limiter = 1.0, None
    for name, supply, asked in (("tokens/min", (capacity.tokens_per_minute or 0) / 60, tokens),
                                ("requests/min", (capacity.requests_per_minute or 0) / 60, requests),
                                ("timing slots", float(capacity.gpu_cards), gpu)):
        if asked > _EPS and supply > 0 and supply / asked < speed:
            speed, limiter = supply / asked, name
    return speed, limiter


def simulate(loads: Sequence[TrialLoad], capacity: Capacity, running: Sequence[TrialLoad] = ()) -> Simulation:
    """Run the night in the model: ``running`` trials hold slots from time 0 (with what they have left),
    then ``loads`` start in order as slots free. Finish times are returned for ``loads`` only."""
    slots = max(1, capacity.concurrency)
    heap: list[tuple[float, int, tuple[float, float, float]]] = []
    demand = [0.0, 0.0, 0.0]
    progress, now = 0.0, 0.0
    finish = [0.0] * len(loads)
    slowed: dict[str, float] = {}

    def start(load: TrialLoad, index: int) -> None:
        duration = max(load.duration_s, _EPS)
        rates = (load.tokens / duration, load.requests / duration, load.gpu_s / duration)
        heapq.heappush(heap, (progress + duration, index, rates))
        for i in range(3):
            demand[i] += rates[i]

    for load in running:
        start(load, -1)
    upcoming = 0
    while upcoming < len(loads) and len(heap) < slots:
        start(loads[upcoming], upcoming)
        upcoming += 1
    while heap:
        speed, limiter = _speed(demand, capacity)
        at, index, rates = heapq.heappop(heap)
        step = (at - progress) / speed
        now += step
        if limiter is not None and step > 0:
            slowed[limiter] = slowed.get(limiter, 0.0) + step
        progress = at
        for i in range(3):
            demand[i] = max(0.0, demand[i] - rates[i])
        if index >= 0:
            finish[index] = now
        while upcoming < len(loads) and len(heap) < slots:
            start(loads[upcoming], upcoming)
            upcoming += 1
    return Simulation(makespan_s=now, finish_s=finish, slowed_s=slowed)


@dataclass
class NightForecast:
    """The planner's answer for one set of trials at one capacity."""

    trials: int
    capacity: Capacity
    bounds: dict[str, float]
    makespan_s: float
    slowed_s: dict[str, float]

    @property
    def lower_bound_s(self) -> float:
        return max(self.bounds.values())

    @property
    def binding(self) -> str:
        """The constraint with the largest lower bound."""
        return max(self.bounds, key=lambda k: self.bounds[k])

    def also_binding(self) -> dict[str, float]:
        """Other constraints that slow the simulated night, as a fraction of it (quota bursts, for example)."""
        night = max(self.makespan_s, _EPS)
        return {k: v / night for k, v in sorted(self.slowed_s.items()) if k != self.binding and v / night >= 0.01}


def forecast(loads: Sequence[TrialLoad], capacity: Capacity) -> NightForecast:
    """Lower bounds, binding constraint and simulated makespan of ``loads`` run in this order."""
    sim = simulate(loads, capacity)
    return NightForecast(trials=len(loads), capacity=capacity, bounds=lower_bounds(loads, capacity),
                         makespan_s=sim.makespan_s, slowed_s=sim.slowed_s)


def concurrency_needed(loads: Sequence[TrialLoad], capacity: Capacity, deadline_s: float) -> int | None:
    """The smallest concurrency whose simulated night ends by ``deadline_s``; None when none does (the
    quota, the cards or the longest trial alone need more time than that)."""
    if not loads:
        return 0
    others = {k: v for k, v in lower_bounds(loads, capacity.with_concurrency(len(loads))).items()
              if k != "concurrency"}
    if max(others.values()) > deadline_s:
        return None
    low = max(1, math.ceil(sum(t.duration_s for t in loads) / max(deadline_s, _EPS)))
    high = len(loads)
    if simulate(loads, capacity.with_concurrency(high)).makespan_s > deadline_s:
        return None
    while low < high:
        mid = (low + high) // 2
        if simulate(loads, capacity.with_concurrency(mid)).makespan_s <= deadline_s:
            high = mid
        else:
            low = mid + 1
    return low
