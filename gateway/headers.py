"""Reading what an endpoint says about its quota: Retry-After, retry-after-ms and the x-ratelimit-* set.

OpenAI sends ``x-ratelimit-{limit,remaining,reset}-{requests,tokens}`` on every response, resets written
as Go durations (``120ms``, ``1.5s``, ``6m0s``), and ``retry-after`` (seconds, or an HTTP date) with some
429s; some proxies send ``retry-after-ms``. Parsing never raises: a header that cannot be read is None.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

_UNITS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ms|us|µs|ns|h|m|s)")


def parse_duration(text: str | None) -> float | None:
    """Seconds in a Go-style duration (``1m30.5s``, ``250ms``) or a plain number of seconds."""
    if text is None:
        return None
    text = text.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    parts = _PART.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * _UNITS[u] for n, u in parts)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds from a Retry-After value: a number of seconds or an HTTP date."""
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def _int(value: str | None) -> int | None:
    try:
        return int(float(value)) if value is not None else None
    except ValueError:
        return None


@dataclass(frozen=True)
class RateLimitHeaders:
    """The quota headers of one response; every field None when the endpoint did not send it."""

    retry_after_s: float | None = None
    limit_requests: int | None = None
    limit_tokens: int | None = None
    remaining_requests: int | None = None
    remaining_tokens: int | None = None
    reset_requests_s: float | None = None
    reset_tokens_s: float | None = None

    @classmethod
    def parse(cls, headers: Mapping[str, str] | None) -> RateLimitHeaders:
        """Read the headers (case-insensitively; ``retry-after-ms`` wins over ``retry-after``)."""
        if not headers:
            return cls()
        h = {k.lower(): v for k, v in headers.items()}
        retry_ms = _int(h.get("retry-after-ms"))
        retry = retry_ms / 1000 if retry_ms is not None and retry_ms >= 0 else parse_retry_after(h.get("retry-after"))
        for kind in ("requests", "tokens"):  # Anthropic's names, when OpenAI's are absent
            for what in ("limit", "remaining"):
                h.setdefault(f"x-ratelimit-{what}-{kind}", h.get(f"anthropic-ratelimit-{kind}-{what}", ""))
        return cls(retry_after_s=retry,
                   limit_requests=_int(h.get("x-ratelimit-limit-requests") or None),
                   limit_tokens=_int(h.get("x-ratelimit-limit-tokens") or None),
                   remaining_requests=_int(h.get("x-ratelimit-remaining-requests") or None),
                   remaining_tokens=_int(h.get("x-ratelimit-remaining-tokens") or None),
                   reset_requests_s=parse_duration(h.get("x-ratelimit-reset-requests")),
                   reset_tokens_s=parse_duration(h.get("x-ratelimit-reset-tokens")))

    def wait_hint(self) -> float | None:
        """How long the endpoint wants us away: Retry-After, else the time until one request refills
        (when requests are used up), else the token reset (when tokens are), else None."""
        if self.retry_after_s is not None:
            return self.retry_after_s
        waits = []
        if self.remaining_requests == 0:
            one = 60.0 / self.limit_requests if self.limit_requests else None
            candidates = [w for w in (one, self.reset_requests_s) if w is not None]
            if candidates:
                waits.append(min(candidates))
        if self.remaining_tokens == 0 and self.reset_tokens_s is not None:
            waits.append(self.reset_tokens_s)
        return min(60.0, max(waits)) if waits else None
