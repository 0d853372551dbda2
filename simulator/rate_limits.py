"""Per-API-key request and token quotas, enforced the way OpenAI does it.

Each key has two continuous-refill token buckets: requests per minute and tokens per minute. A bucket
holds at most one minute of quota and refills at ``quota / 60`` per second. A request needs one request
and its *estimated* tokens (prompt characters / 4 + ``max_tokens``); the estimate is charged up front and
never refunded. A request that does not fit is rejected (HTTP 429) with the wait until it would fit;
with ``count_rejected`` a rejected request still takes one request from the bucket when one is there.

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
    """Holds up to ``capacity`` units and refills continuously at ``capacity / 60`` units per second."""

    capacity: float
    level: float
    updated: float

    @property
    def rate(self) -> float:
        return self.capacity / 60.0

    def refill(self, now: float) -> None:
        if now > self.updated:
            self.level = min(self.capacity, self.level + (now - self.updated) * self.rate)
        self.updated = now

    def wait_for(self, amount: float) -> float:
        """Seconds until ``amount`` units are there (0 when they are; a full minute if it can never fit)."""
        if amount > self.capacity:
            return 60.0
        return max(0.0, (amount - self.level) / self.rate)

    def until_full(self) -> float:
        return (self.capacity - self.level) / self.rate


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
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.count_rejected = count_rejected
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[TokenBucket, TokenBucket]] = {}

    def _buckets_for(self, key: str, now: float) -> tuple[TokenBucket, TokenBucket]:
        pair = self._buckets.get(key)
        if pair is None:
            pair = (TokenBucket(self.requests_per_minute, self.requests_per_minute, now),
                    TokenBucket(self.tokens_per_minute, self.tokens_per_minute, now))
            self._buckets[key] = pair
        return pair

    def acquire(self, key: str, estimated_tokens: int, model: str = "the model") -> Decision:
        """Take one request and ``estimated_tokens`` tokens from ``key``'s quota, or say why not."""
        with self._lock:
            now = self._clock()
            requests, tokens = self._buckets_for(key, now)
            requests.refill(now)
            tokens.refill(now)
            if requests.level < 1:
                wait = requests.wait_for(1)
                decision = Decision(
                    False, "requests", wait,
                    f"Rate limit reached for {model} on requests per min (RPM): Limit "
                    f"{self.requests_per_minute}, Used {self.requests_per_minute}, Requested 1. "
                    f"Please try again in {format_duration(wait)}.")
            elif tokens.level < estimated_tokens:
                wait = tokens.wait_for(estimated_tokens)
                if estimated_tokens > tokens.capacity:
                    message = (f"Request too large for {model} on tokens per min (TPM): Limit "
                               f"{self.tokens_per_minute}, Requested {estimated_tokens}. "
                               f"The input or output tokens must be reduced in order to run successfully.")
                else:
                    used = self.tokens_per_minute - int(tokens.level)
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
