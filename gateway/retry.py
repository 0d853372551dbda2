"""Which model-call failures are worth retrying, and how long one caller waits before its next try.

Retried: 429 (except "Request too large", which no wait cures), 408/409, every 5xx, timeouts, dropped or
reset connections (``APIConnectionError``), and replies whose body is not the JSON promised (truncated or
malformed). Everything else (400, 401, 404, ...) would fail the same way again and is not. The
process-wide slowdown after a 429 is the quota gate's job (gateway/buckets.py); this is the per-caller
wait on top of it.
"""

from __future__ import annotations

import json
import random

import openai
import pydantic
from tenacity import RetryCallState

from nightshift.gateway.headers import RateLimitHeaders

RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APIConnectionError,
             openai.APITimeoutError, openai.APIResponseValidationError, json.JSONDecodeError,
             pydantic.ValidationError)


def too_large(exc: BaseException) -> bool:
    """A 429 that no wait can cure: the request alone exceeds the per-minute token quota."""
    return isinstance(exc, openai.RateLimitError) and "request too large" in str(exc).lower()


def is_retryable(exc: BaseException) -> bool:
    if too_large(exc):
        return False
    if isinstance(exc, RETRYABLE):
        return True
    # some servers answer overload with other 5xx codes (502, 504) that the SDK maps to APIStatusError
    return isinstance(exc, openai.APIStatusError) and (exc.status_code >= 500 or exc.status_code in (408, 409))


def failure_kind(exc: BaseException) -> str:
    """A short name for the log and the error message: 429, 503, timeout, connection, bad_json, ..."""
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection"
    if isinstance(exc, openai.APIStatusError):
        return str(exc.status_code)
    if isinstance(exc, (json.JSONDecodeError, openai.APIResponseValidationError, pydantic.ValidationError)):
        return "bad_json"
    return type(exc).__name__


def server_hint(exc: BaseException | None) -> float | None:
    """The server's own word on when to come back, if it gave one: Retry-After on any status, and for a
    429 without it, what the x-ratelimit-* headers say."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = RateLimitHeaders.parse(response.headers)
    return headers.wait_hint() if isinstance(exc, openai.RateLimitError) else headers.retry_after_s


class BackoffWait:
    """Exponential backoff with full jitter, but never sooner than the server's Retry-After."""

    def __init__(self, initial_s: float = 0.5, max_s: float = 30.0):
        self.initial_s = initial_s
        self.max_s = max_s

    def __call__(self, state: RetryCallState) -> float:
        exp = min(self.max_s, self.initial_s * 2 ** (state.attempt_number - 1))
        wait = random.uniform(0, exp)
        exc = state.outcome.exception() if state.outcome else None
        server = server_hint(exc) if isinstance(exc, openai.APIStatusError) else None
        if server is not None:
            # callers rejected together come back spread over 10 % of the hint, not all at once
            wait = server + random.uniform(0, min(1.0, server * 0.1 + 0.05))
        return wait
