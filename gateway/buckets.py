"""The process-wide quota gate: requests/min and tokens/min token buckets every model call waits on.

Owns the pacing of this process's model calls; knows nothing of HTTP or of trials.

* Two ``TokenBucket``s refill at ``share × quota / 60`` per second and hold ``burst_s`` seconds of it.
  A caller *reserves* one request and its estimated tokens at once, even into debt, and sleeps until
  its reservation is covered: callers leave in arrival order, spaced at the quota rate, and the lock is
  held only for the arithmetic (safe for hundreds of threads).
* The local buckets are much shallower than the endpoint's (1 s against OpenAI's minute), so once
  the endpoint's own bucket is drained by the initial burst it keeps a reserve that absorbs latency
  jitter: requests arrive at the quota rate and are not rejected.
* ``observe`` reads every response's x-ratelimit-* headers: it learns a quota the experiment did not
  state (or stated higher than the endpoint's), and lowers the local buckets to our share of what the
  endpoint says remains.
* ``rate_limited`` is the 429 path: it pauses the whole process until the endpoint's Retry-After
  (sleeping callers wake, see the pause and queue again behind it) and multiplies the rate by 0.8,
  once per episode (a 429 that arrives while the process is still paused is the same episode); the
  rate recovers by 2 % of the quota per second after 5 s without a 429.
* With a fleet store (``fleet.py``: Redis, shared by every worker of the key) each call also reserves in
  the fleet's buckets, and the local buckets shape at the whole quota instead of a share: a worker that
  idles or leaves frees its part for the others. Unreachable store: back to ``share``, until it answers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from nightshift.gateway.fleet import FleetBuckets
from nightshift.gateway.headers import RateLimitHeaders


@dataclass
class Quota:
    """What this process may use of the endpoint's per-key quota."""

    requests_per_minute: float | None = None
    """Requests/min of the key; None: learned from the first x-ratelimit-limit-requests header."""
    tokens_per_minute: float | None = None
    """Tokens/min of the key; None: learned from x-ratelimit-limit-tokens."""
    share: float = 1.0
    """Fraction of the key's quota this process uses (processes sharing a key split it)."""
    burst_s: float = 1.0
    """Seconds of quota the local buckets hold: short, so an endpoint that enforces its quota over short
    periods (OpenAI: "60,000 requests/minute may be enforced as 1,000 requests/second") is not overrun."""


class TokenBucket:
    """Units that refill at ``rate`` per second up to ``capacity``; reservations may leave it in debt."""

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate, self.capacity, self.level, self.updated = rate, capacity, capacity, now

    def refill(self, now: float) -> None:
        if now > self.updated:
            self.level = min(self.capacity, self.level + (now - self.updated) * self.rate)
            self.updated = now

    def reserve(self, amount: float, now: float) -> float:
        """Take ``amount`` now; seconds until the bucket would have held it (0 when it did)."""
        self.refill(now)
        self.level -= amount
        start = max(0.0, self.updated - now)  # a paused bucket refills only from its pause end
        return start + (max(0.0, -self.level) / self.rate if self.rate > 0 else 0.0)

    def set_rate(self, rate: float, capacity: float, now: float) -> None:
        self.refill(now)
        self.rate, self.capacity = rate, capacity
        self.level = min(self.level, capacity)

    def empty_until(self, when: float) -> None:
        """Hold nothing until ``when``, forgetting reservations (their owners queue again)."""
        self.level = 0.0
        self.updated = max(self.updated, when)


class QuotaGate:
    """One per process: every model call ``acquire``s here before it is sent."""

    DECREASE = 0.8
    MIN_FACTOR = 0.1
    COOLDOWN_S = 5.0
    RECOVERY_PER_S = 0.02
    DEFAULT_PAUSE_S = 1.0

    def __init__(self, quota: Quota | None = None, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, fleet: FleetBuckets | None = None) -> None:
        self.quota = quota or Quota()
        self.fleet = fleet
        self._on_fleet = fleet is not None  # False while the store is unreachable: shape at our share
        self._clock, self._sleep = clock, sleep
        self._lock = threading.Lock()
        now = clock()
        self.factor = 1.0
        self._epoch = 0
        self._last_429 = -1e18
        self._factor_at = now
        self.pauses = 0
        self.paused_s = 0.0
        self._paused_until = now
        self._requests: TokenBucket | None = None
        self._tokens: TokenBucket | None = None
        self._configure(now)

    def _configure(self, now: float) -> None:
        """(Re)build the buckets' rates from the quota, the share and the adaptive factor."""
        for name, per_minute in (("_requests", self.quota.requests_per_minute),
                                 ("_tokens", self.quota.tokens_per_minute)):
            if not per_minute:
                setattr(self, name, None)
                continue
            share = 1.0 if self._on_fleet else self.quota.share
            rate = per_minute * share * self.factor / 60.0
            capacity = max(1.0, per_minute * share / 60.0 * self.quota.burst_s)
            bucket = getattr(self, name)
            if bucket is None:
                setattr(self, name, TokenBucket(rate, capacity, now))
            else:
                bucket.set_rate(rate, capacity, now)

    def _recover(self, now: float) -> None:
        if self.factor < 1.0 and now - self._last_429 > self.COOLDOWN_S:
            self.factor = min(1.0, self.factor + self.RECOVERY_PER_S * (now - max(self._factor_at,
                                                                                  self._last_429 + self.COOLDOWN_S)))
            self._configure(now)
        self._factor_at = now

    def acquire(self, tokens: float) -> float:
        """Block until one request and ``tokens`` tokens are this caller's; returns the seconds waited."""
        started = self._clock()
        while True:
            with self._lock:
                now = self._clock()
                self._recover(now)
                epoch = self._epoch
                wait = max((b.reserve(amount, now) for b, amount in ((self._requests, 1), (self._tokens, tokens))
                            if b is not None), default=0.0)
                rpm, tpm = (self.quota.requests_per_minute, self.quota.tokens_per_minute)
                rpm, tpm = (rpm and rpm * self.factor), (tpm and tpm * self.factor)
            if self.fleet is not None:  # network I/O: outside the lock
                wait = max(wait, self._fleet_reserve(rpm, tpm, tokens))
            if wait <= 0:
                return self._clock() - started
            self._sleep(wait)
            with self._lock:
                if self._epoch == epoch:
                    return self._clock() - started
            # a 429 paused the process while this caller slept: its reservation is void, queue again

    def _fleet_reserve(self, rpm: float | None, tpm: float | None, tokens: float) -> float:
        assert self.fleet is not None  # called only with a fleet store
        fleet_wait = self.fleet.reserve(rpm, tpm, tokens)
        if (fleet_wait is not None) != self._on_fleet:  # the store went away or came back: reshape locally
            with self._lock:
                self._on_fleet = fleet_wait is not None
                self._configure(self._clock())
        return fleet_wait or 0.0

    def settle(self, estimated_tokens: float, charged_tokens: float) -> None:
        """Correct the token bucket once the response's usage says what the call really charged."""
        with self._lock:
            if self._tokens is not None:
                self._tokens.level = min(self._tokens.capacity,
                                         self._tokens.level - (charged_tokens - estimated_tokens))
        if self.fleet is not None:
            self.fleet.settle(self.quota.tokens_per_minute, charged_tokens - estimated_tokens)

    def observe(self, headers: RateLimitHeaders) -> None:
        """Learn an unstated quota from x-ratelimit-limit-*; never hold more than our share of what the
        endpoint says remains."""
        with self._lock:
            now = self._clock()
            learned = False
            # the endpoint knows its limit: take it when none was stated, or when it is lower than stated
            if headers.limit_requests and (self.quota.requests_per_minute or 1e300) > headers.limit_requests:
                self.quota.requests_per_minute, learned = headers.limit_requests, True
            if headers.limit_tokens and (self.quota.tokens_per_minute or 1e300) > headers.limit_tokens:
                self.quota.tokens_per_minute, learned = headers.limit_tokens, True
            if learned:
                self._configure(now)
            for bucket, remaining in ((self._requests, headers.remaining_requests),
                                      (self._tokens, headers.remaining_tokens)):
                if bucket is not None and remaining is not None:
                    bucket.refill(now)
                    bucket.level = min(bucket.level, remaining * (1.0 if self._on_fleet else self.quota.share))

    def rate_limited(self, headers: RateLimitHeaders) -> float:
        """A 429 arrived: pause every caller until the endpoint's hint and slow down. Returns the pause."""
        self.observe(headers)
        pause = headers.wait_hint()
        pause = self.DEFAULT_PAUSE_S if pause is None else pause
        with self._lock:
            now = self._clock()
            self._last_429 = now
            # once per congestion episode: 429s of requests sent before the pause began do not count again
            if now >= self._paused_until:
                self.factor = max(self.MIN_FACTOR, self.factor * self.DECREASE)
                self._configure(now)
            until = now + pause
            if until > self._paused_until:
                self.pauses += 1
                self.paused_s += until - max(now, self._paused_until)
                self._paused_until = until
                self._epoch += 1
                for bucket in (self._requests, self._tokens):
                    if bucket is not None:
                        bucket.empty_until(until)
        if self.fleet is not None:  # the endpoint said the key is drained: every worker holds off
            self.fleet.pause(pause)
        return pause

    def snapshot(self) -> dict:
        """Current state, for logs and the benchmark."""
        with self._lock:
            return {"requests_per_minute": self.quota.requests_per_minute,
                    "tokens_per_minute": self.quota.tokens_per_minute, "share": self.quota.share,
                    "factor": round(self.factor, 3), "pauses": self.pauses, "paused_s": round(self.paused_s, 3),
                    "fleet": None if self.fleet is None else {"url": self.fleet.url, "available": self._on_fleet,
                                                              "failures": self.fleet.failures}}
