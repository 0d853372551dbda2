"""The quota gate: FIFO pacing at the quota rate, pauses on 429, slowdown and recovery, learned quotas."""

import threading

import pytest

from nightshift.gateway.buckets import Quota, QuotaGate, TokenBucket
from nightshift.gateway.headers import RateLimitHeaders


class FakeClock:
    """A clock that only moves when someone sleeps."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def gate(rpm: float | None = 60, tpm: float | None = 6000, share: float = 1.0, burst_s: float = 2.0
         ) -> tuple[QuotaGate, FakeClock]:
    clock = FakeClock()
    return QuotaGate(Quota(rpm, tpm, share, burst_s), clock=clock, sleep=clock.sleep), clock


def test_bucket_reservations_queue_in_order_into_debt() -> None:
    bucket = TokenBucket(rate=10, capacity=2, now=0)
    assert [bucket.reserve(1, 0) for _ in range(5)] == pytest.approx([0, 0, 0.1, 0.2, 0.3])
    assert bucket.reserve(1, 1.0) == pytest.approx(0.0)  # 1 s refilled the 3 owed and one more
    bucket.empty_until(5.0)
    assert bucket.reserve(1, 4.0) == pytest.approx(1.1)  # nothing before 5 s, then 0.1 s for one


def test_burst_then_exactly_the_quota_rate() -> None:
    g, clock = gate(rpm=60, tpm=None, burst_s=2)
    start = clock.now
    waits = [g.acquire(0) for _ in range(12)]
    assert waits[:2] == [0, 0]  # the 2 s burst of a 1/s quota
    assert clock.now - start == pytest.approx(10.0)  # then one per second
    assert waits[2] == pytest.approx(1.0)


def test_tokens_bucket_paces_big_requests() -> None:
    g, clock = gate(rpm=None, tpm=600, burst_s=1)  # 10 tokens/s, holds 10
    start = clock.now
    for _ in range(4):
        g.acquire(10)
    assert clock.now - start == pytest.approx(3.0)
    g.acquire(50)  # larger than the bucket: waits its turn, never starves
    assert clock.now - start == pytest.approx(8.0)


def test_share_splits_the_rate() -> None:
    g, clock = gate(rpm=120, tpm=None, share=0.5, burst_s=1)
    start = clock.now
    for _ in range(11):
        g.acquire(0)
    assert clock.now - start == pytest.approx(10.0)  # half of 2/s


def test_settle_charges_the_difference() -> None:
    g, clock = gate(rpm=None, tpm=600, burst_s=1)
    g.acquire(5)  # 10 held, 5 left
    g.settle(estimated_tokens=5, charged_tokens=15)  # 10 more than reserved: -5
    assert g.acquire(1) == pytest.approx(0.6)  # 6 tokens owed at 10/s
    g.settle(estimated_tokens=100, charged_tokens=0)  # an over-estimate comes back, up to a full bucket
    assert g.acquire(10) == 0


def test_429_pauses_every_caller_then_slows_and_recovers() -> None:
    g, clock = gate(rpm=600, tpm=None, burst_s=1)
    pause = g.rate_limited(RateLimitHeaders(retry_after_s=3.0))
    assert pause == 3.0 and g.factor == pytest.approx(0.8)
    g.rate_limited(RateLimitHeaders(retry_after_s=0.5))  # still paused: the same episode, no second cut
    assert g.factor == pytest.approx(0.8)
    assert g.acquire(0) == pytest.approx(3.0 + 1 / 8)  # nothing before the pause ends, then 8/s
    g.rate_limited(RateLimitHeaders(retry_after_s=0.5))  # a 429 after the pause: too fast still
    assert g.factor == pytest.approx(0.64)
    clock.now += 5.0 + 5.0  # cooldown, then 5 s of recovery at 2 %/s
    g.acquire(0)
    assert g.factor == pytest.approx(0.74)
    clock.now += 60
    g.acquire(0)
    assert g.factor == 1.0
    assert g.snapshot()["pauses"] == 2


def test_429_without_hint_pauses_default_and_uses_headers() -> None:
    g, _ = gate(rpm=600, tpm=None)
    assert g.rate_limited(RateLimitHeaders()) == QuotaGate.DEFAULT_PAUSE_S
    g2, _ = gate(rpm=600, tpm=None)
    assert g2.rate_limited(RateLimitHeaders(limit_requests=600, remaining_requests=0)) == pytest.approx(0.1)


def test_callers_asleep_during_a_pause_queue_again_behind_it() -> None:
    clock = FakeClock()
    events: list[tuple[str, float]] = []
    g: QuotaGate

    def sleep(seconds: float) -> None:
        if not events:  # the first sleeper: a 429 lands while it sleeps
            events.append(("429", clock.now))
            g.rate_limited(RateLimitHeaders(retry_after_s=10.0))
        clock.sleep(seconds)

    g = QuotaGate(Quota(60, None, 1.0, 1.0), clock=clock, sleep=sleep)
    start = clock.now
    g.acquire(0)  # the burst
    g.acquire(0)  # would leave at +1 s; the pause voids that and it leaves at +10 s + 1/0.8 s
    assert clock.now - start == pytest.approx(10 + 1.25)


def test_learns_an_unstated_quota_and_clamps_to_what_remains() -> None:
    g, clock = gate(rpm=None, tpm=None)
    assert g.acquire(10**9) == 0  # nothing known: no limit
    g.observe(RateLimitHeaders(limit_requests=60, limit_tokens=6000))
    assert g.snapshot()["requests_per_minute"] == 60
    g.observe(RateLimitHeaders(limit_requests=120, limit_tokens=3000))  # never above a stated/learned quota,
    assert (g.quota.requests_per_minute, g.quota.tokens_per_minute) == (60, 3000)  # down to the endpoint's
    shared, _ = gate(rpm=600, tpm=None, share=0.5, burst_s=2)  # 10 in the local bucket
    shared.observe(RateLimitHeaders(remaining_requests=4))  # endpoint: 4 left → our half is 2
    waits = [shared.acquire(0) for _ in range(3)]
    assert waits == pytest.approx([0, 0, 0.2])


def test_many_threads_leave_at_the_quota_rate() -> None:
    """40 threads, 200 calls at 100/s with a burst of 10: on a clock that stands still, each caller's departure is
    what the gate booked for it, so the bookings must be the burst then one every 10 ms, no slot given twice.
    (The same claim in real time, against one thread alone, is bench/timing_claims.py's.)"""
    clock = FakeClock()
    mine = threading.local()

    def sleep(seconds: float) -> None:
        mine.leaves = clock() + seconds  # not slept: every thread books against the same instant

    g = QuotaGate(Quota(requests_per_minute=6000, tokens_per_minute=None, burst_s=0.1), clock=clock, sleep=sleep)
    departures: list[float] = []
    lock = threading.Lock()
    ready = threading.Barrier(40)

    def caller() -> None:
        ready.wait()
        for _ in range(5):
            mine.leaves = clock()
            g.acquire(0)
            with lock:
                departures.append(mine.leaves - 100.0)

    threads = [threading.Thread(target=caller) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert sorted(departures) == pytest.approx([0.0] * 10 + [k / 100 for k in range(1, 191)])
