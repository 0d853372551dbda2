"""Which model-call failures are worth retrying, and how long to wait before the next try."""

from __future__ import annotations

import random

import openai
from tenacity import RetryCallState

RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APIConnectionError,
             openai.APITimeoutError)


def is_retryable(exc: BaseException) -> bool:
    if isinstance(exc, RETRYABLE):
        return True
    # some servers answer overload with other 5xx codes (502, 504) that the SDK maps to APIStatusError
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def retry_after_s(exc: BaseException) -> float | None:
    """The server's own word on when to come back (retry-after-ms, then retry-after), if it gave one."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is not None:
            try:
                return max(0.0, float(value) * scale)
            except ValueError:
                continue
    return None


class BackoffWait:
    """Exponential backoff with full jitter, but never sooner than the server's Retry-After."""

    def __init__(self, initial_s: float = 0.5, max_s: float = 30.0):
        self.initial_s = initial_s
        self.max_s = max_s

    def __call__(self, state: RetryCallState) -> float:
        exp = min(self.max_s, self.initial_s * 2 ** (state.attempt_number - 1))
        wait = random.uniform(0, exp)
        exc = state.outcome.exception() if state.outcome else None
        server = retry_after_s(exc) if exc else None
        if server is not None:
            wait = server + random.uniform(0, min(1.0, server * 0.1 + 0.05))
        return wait
