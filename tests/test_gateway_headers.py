"""Reading quota headers: Retry-After in every form, retry-after-ms, x-ratelimit-* and Go durations."""

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from nightshift.gateway.headers import RateLimitHeaders, parse_duration, parse_retry_after
from nightshift.simulator.rate_limits import RateLimiter, format_duration


@pytest.mark.parametrize(("text", "seconds"), [
    ("0s", 0.0), ("120ms", 0.12), ("1s", 1.0), ("1.5s", 1.5), ("6m0s", 360.0), ("1m1.25s", 61.25),
    ("1h1m1s", 3661.0), ("20us", 2e-5), ("3µs", 3e-6), ("500ns", 5e-7), ("17", 17.0), ("0.25", 0.25),
])
def test_go_durations_and_plain_seconds(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["", "soon", "1x", "s", "1m-3s", "1.5.2s", None])
def test_unreadable_durations_are_none(text: str | None) -> None:
    assert parse_duration(text) is None


def test_every_duration_the_simulator_writes_reads_back() -> None:
    for seconds in (0.001, 0.12, 0.999, 1, 1.5, 59.9, 61.25, 359.5, 3661):
        assert parse_duration(format_duration(seconds)) == pytest.approx(seconds, abs=1e-3)


def test_retry_after_seconds_and_http_date() -> None:
    now = datetime(2026, 11, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("7", now) == 7.0
    assert parse_retry_after("0.5", now) == 0.5
    assert parse_retry_after(format_datetime(now + timedelta(seconds=30), usegmt=True), now) == 30.0
    assert parse_retry_after(format_datetime(now - timedelta(seconds=30), usegmt=True), now) == 0.0
    assert parse_retry_after("tomorrow-ish", now) is None
    assert parse_retry_after(None, now) is None


def test_retry_after_ms_wins_and_names_are_case_insensitive() -> None:
    headers = RateLimitHeaders.parse({"Retry-After": "2", "Retry-After-Ms": "1250",
                                      "X-RateLimit-Limit-Requests": "600", "x-ratelimit-limit-tokens": "200000",
                                      "x-ratelimit-remaining-requests": "0", "x-ratelimit-remaining-tokens": "1234",
                                      "x-ratelimit-reset-requests": "100ms", "x-ratelimit-reset-tokens": "6m0s"})
    assert headers == RateLimitHeaders(1.25, 600, 200000, 0, 1234, 0.1, 360.0)
    assert headers.wait_hint() == 1.25
    assert RateLimitHeaders.parse({"retry-after": "3", "retry-after-ms": "junk"}).retry_after_s == 3.0


def test_wait_hint_without_retry_after_reads_the_exhausted_bucket() -> None:
    requests_out = RateLimitHeaders(limit_requests=600, remaining_requests=0, reset_requests_s=5.0)
    assert requests_out.wait_hint() == pytest.approx(0.1)  # one request refills in 60/600 s
    tokens_out = RateLimitHeaders(remaining_requests=9, remaining_tokens=0, reset_tokens_s=2.5)
    assert tokens_out.wait_hint() == 2.5
    assert RateLimitHeaders(remaining_tokens=0, reset_tokens_s=900).wait_hint() == 60.0  # capped
    assert RateLimitHeaders(remaining_requests=3, remaining_tokens=100).wait_hint() is None
    assert RateLimitHeaders.parse(None) == RateLimitHeaders()


def test_a_simulator_429_parses_completely() -> None:
    limiter = RateLimiter(requests_per_minute=60, tokens_per_minute=600, clock=lambda: 0.0, burst_s=5)
    assert limiter.acquire("k", 10).allowed
    rejected = limiter.acquire("k", 10)  # a 5 s bucket of a 60/min quota holds 5 requests
    for _ in range(4):
        rejected = limiter.acquire("k", 10)
    assert not rejected.allowed and rejected.kind == "requests"
    headers = RateLimitHeaders.parse(rejected.rejection_headers())
    assert headers.limit_requests == 60 and headers.limit_tokens == 600
    assert headers.remaining_requests == 0 and headers.retry_after_s == pytest.approx(rejected.retry_after_s,
                                                                                      abs=1e-3)
