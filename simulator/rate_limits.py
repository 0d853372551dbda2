"""Per-API-key request and token quotas, enforced the way OpenAI does it.

Each key has two continuous-refill token buckets: requests per minute and tokens per minute. A bucket
refills at ``quota / 60`` per second and holds ``burst_s`` seconds of quota (60 by default: one whole
minute). OpenAI documents that limits "may be quantized" (enforced over shorter periods: 60,000/min as
1,000/s); a small ``burst_s`` plays that. A request larger than a short bucket but within the per-minute
quota is let through when the bucket is full, leaving it in debt. A request needs one request
and its *estimated* tokens (prompt characters / 4 + ``max_tokens``); the estimate is charged up front and
never refunded. A request that does not fit is rejected (HTTP 429) with the wait until it would fit.
With ``count_rejected`` (OpenAI: "unsuccessful requests contribute to your per-minute limit") a rejected
request still takes one request from the bucket, even an empty one, which goes into debt down to minus
one bucket: a client that keeps retrying into a 429 keeps pushing its own next success further away.

``RateLimiter.acquire`` is guarded by a lock, so it is safe from threads and from the event loop (it
never blocks for long and never awaits).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

DEFAULT_MAX_TOKENS = 1024
"""Completion tokens assumed for the estimate when a request sets neither max_tokens nor
max_completion_tokens."""


def format_duration(seconds: float) -> str:
    """A duration the way OpenAI's x-ratelimit-reset-* headers write it (Go style): 120ms, 1s, 6m0s, 1.5s."""
    ms = max(0, math.ceil(seconds * 1000 - 1e-9))
    if ms == 0:
        return "0s"
    if ms < 1000:
        return f"{ms}ms"
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs = f"{rest // 1000}.{rest % 1000:03d}".rstrip("0").rstrip(".")
    if hours:
        return f"{hours}h{minutes}m{secs}s"
    if minutes:
        return f"{minutes}m{secs}s"
    return f"{secs}s"


@dataclass
class TokenBucket:
    """Holds up to ``capacity`` units and refills continuously at ``rate`` units per second."""

    capacity: float
    level: float
    updated: float
    rate: float

    def refill(self, now: float) -> None:
        if now > self.updated:
            self.level = min(self.capacity, self.level + (now - self.updated) * self.rate)
        self.updated = now

    def needed(self, amount: float) -> float:
        """What the bucket must hold to admit ``amount``: all of it, or a full bucket when it is larger."""
        return min(amount, self.capacity)

    def wait_for(self, amount: float) -> float:
        """Seconds until ``amount`` units can be taken (0 when they can)."""
        return max(0.0, (self.needed(amount) - self.level) / self.rate)

    def until_full(self) -> float:
        return max(0.0, (self.capacity - self.level) / self.rate)


@dataclass
class Decision:
    """The verdict on one request, with the headers the response carries either way."""

    allowed: bool
    kind: Literal["requests", "tokens"] | None = None
    retry_after_s: float = 0.0
    message: str = ""
    headers: dict[str, str] = field(default_factory=dict)

    def rejection_headers(self) -> dict[str, str]:
        """Headers of a 429: the x-ratelimit-* set plus retry-after (integer seconds) and retry-after-ms."""
        return {
            **self.headers,
            "retry-after": str(max(1, math.ceil(self.retry_after_s))),
            "retry-after-ms": str(max(1, math.ceil(self.retry_after_s * 1000))),
        }

    def error_body(self) -> dict:
        return {"error": {"message": self.message, "type": self.kind, "param": None,
                          "code": "rate_limit_exceeded"}}


class RateLimiter:
    """Requests/min and tokens/min per API key; ``clock`` is injectable for tests."""

    def __init__(self, requests_per_minute: int, tokens_per_minute: int, count_rejected: bool = True,
                 clock: Callable[[], float] = time.monotonic, burst_s: float = 60.0) -> None:
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.count_rejected = count_rejected
        self.burst_s = burst_s
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[TokenBucket, TokenBucket]] = {}

    def _buckets_for(self, key: str, now: float) -> tuple[TokenBucket, TokenBucket]:
        pair = self._buckets.get(key)
        if pair is None:
            pair = (self._bucket(self.requests_per_minute, now), self._bucket(self.tokens_per_minute, now))
            self._buckets[key] = pair
        return pair

    def _bucket(self, per_minute: int, now: float) -> TokenBucket:
        capacity = max(1.0, per_minute * self.burst_s / 60.0)
        return TokenBucket(capacity, capacity, now, per_minute / 60.0)

    def levels(self) -> dict[str, dict[str, float]]:
        """What each key's buckets hold now: ``{key: {"requests": n, "tokens": n}}`` (for /sim/stats)."""
        with self._lock:
            now = self._clock()
            out = {}
            for key, (requests, tokens) in self._buckets.items():
                requests.refill(now)
                tokens.refill(now)
                out[key] = {"requests": round(requests.level, 3), "tokens": round(tokens.level, 3)}
            return out

    def acquire(self, key: str, estimated_tokens: int, model: str = "the model") -> Decision:
        """Take one request and ``estimated_tokens`` tokens from ``key``'s quota, or say why not."""
        with self._lock:
            now = self._clock()
            requests, tokens = self._buckets_for(key, now)
            requests.refill(now)
            tokens.refill(now)
            if requests.level < 1:
                if self.count_rejected:  # a storm digs the hole deeper, down to one bucket of debt
                    requests.level = max(-requests.capacity, requests.level - 1)
                wait = requests.wait_for(1)
                decision = Decision(
                    False, "requests", wait,
                    f"Rate limit reached for {model} on requests per min (RPM): Limit "
                    f"{self.requests_per_minute}, Used {self.requests_per_minute}, Requested 1. "
                    f"Please try again in {format_duration(wait)}.")
            elif estimated_tokens > self.tokens_per_minute or tokens.level < tokens.needed(estimated_tokens):
                wait = 60.0 if estimated_tokens > self.tokens_per_minute else tokens.wait_for(estimated_tokens)
                if estimated_tokens > self.tokens_per_minute:
                    message = (f"Request too large for {model} on tokens per min (TPM): Limit "
                               f"{self.tokens_per_minute}, Requested {estimated_tokens}. "
                               f"The input or output tokens must be reduced in order to run successfully.")
                else:
                    used = max(0, int(self.tokens_per_minute - tokens.level * 60 / self.burst_s))
                    message = (f"Rate limit reached for {model} on tokens per min (TPM): Limit "
                               f"{self.tokens_per_minute}, Used {used}, Requested {estimated_tokens}. "
                               f"Please try again in {format_duration(wait)}.")
                decision = Decision(False, "tokens", wait, message)
                if self.count_rejected:
                    requests.level -= 1
            else:
                requests.level -= 1
                tokens.level -= estimated_tokens
                decision = Decision(True)
            decision.headers = self._headers(requests, tokens)
            return decision

    def _headers(self, requests: TokenBucket, tokens: TokenBucket) -> dict[str, str]:
        return {
            "x-ratelimit-limit-requests": str(self.requests_per_minute),
            "x-ratelimit-limit-tokens": str(self.tokens_per_minute),
            "x-ratelimit-remaining-requests": str(max(0, math.floor(requests.level))),
            "x-ratelimit-remaining-tokens": str(max(0, math.floor(tokens.level))),
            "x-ratelimit-reset-requests": format_duration(requests.until_full()),
            "x-ratelimit-reset-tokens": format_duration(tokens.until_full()),
        }
