"""The simulator's quota shape (short buckets, debt from counted rejections), latency distributions,
and every injected fault kind as the client sees it and as the request log records it."""

import hashlib
import json
import random
from pathlib import Path

import httpx
import openai
import pytest

from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.rate_limits import RateLimiter

KEY = "sk-test"


def _client(url: str, key: str = KEY) -> openai.OpenAI:
    return openai.OpenAI(base_url=url, api_key=key, max_retries=0, timeout=10)



def test_short_burst_and_rejected_requests_dig_into_debt() -> None:
    now = [0.0]
    limiter = RateLimiter(requests_per_minute=600, tokens_per_minute=60_000, clock=lambda: now[0], burst_s=1)
    assert [limiter.acquire("k", 10).allowed for _ in range(11)] == [True] * 10 + [False]  # 1 s = 10 requests
    storm = [limiter.acquire("k", 10) for _ in range(20)]  # each rejection takes a request it does not get
    assert storm[-1].retry_after_s == pytest.approx((1 + 10) / 10)  # floor: one bucket (10) of debt
    now[0] = 1.0
    assert not limiter.acquire("k", 10).allowed  # a second later the storm's debt is still not repaid
    now[0] = 2.2
    assert limiter.acquire("k", 10).allowed
    big = RateLimiter(600, 60_000, clock=lambda: now[0], burst_s=1)  # holds 1,000 tokens
    assert big.acquire("j", 5_000).allowed  # larger than the bucket but within the minute: once, when full
    assert not big.acquire("j", 10).allowed
    assert "too large" in big.acquire("j", 60_001).message


def test_levels_report_what_each_key_holds() -> None:
    limiter = RateLimiter(60, 600, clock=lambda: 0.0)
    limiter.acquire("a", 100)
    assert limiter.levels() == {"a": {"requests": 59, "tokens": 500}}


@pytest.mark.parametrize("shape", ["lognormal", "exponential", "uniform", "constant"])
def test_latency_distributions_have_the_configured_mean(shape: str) -> None:
    config = SimulatorConfig(latency_ms=100, latency_distribution=shape)
    rng = random.Random(1)
    draws = [config.draw_latency_ms(rng) for _ in range(20_000)]
    assert sum(draws) / len(draws) == pytest.approx(100, rel=0.03)
    assert min(draws) >= 0
    assert (max(draws) == min(draws)) == (shape == "constant")


def test_fault_table_and_cli_flags() -> None:
    from nightshift.simulator.__main__ import config_from_args, parse_args

    config = config_from_args(parse_args(["--fault", "reset=0.1", "--fault", "500=0.2", "--fault-rate", "0.2",
                                          "--burst-s", "5", "--rpm", "600"]))
    assert config.fault_table() == {"reset": 0.1, "500": pytest.approx(0.3), "503": 0.1}
    assert (config.burst_s, config.requests_per_minute) == (5, 600)
    with pytest.raises(SystemExit):
        parse_args(["--fault", "gremlins=0.5"])
    with pytest.raises(ValueError, match="sum to at most 1"):
        SimulatorConfig(faults={"reset": 0.6, "timeout": 0.6})


def test_injected_faults_are_logged_by_kind(tmp_path: Path) -> None:
    log = tmp_path / "faults.jsonl"
    config = SimulatorConfig(latency_ms=0, faults={"503": 0.3, "malformed": 0.3, "reset": 0.3}, seed=2)
    with running_simulator(config, [], log) as url:
        client = _client(url)
        outcomes = []
        for _ in range(20):
            try:
                client.chat.completions.create(model="sim-strong", messages=[{"role": "user", "content": "hi"}])
                outcomes.append("ok")
            except (openai.APIStatusError, openai.APIConnectionError, ValueError) as exc:
                outcomes.append(type(exc).__name__)
        stats = httpx.get(url.removesuffix("/v1") + "/sim/stats").json()
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert {r["fault"] for r in rows} == {None, "503", "malformed", "reset"}
    assert stats["by_fault"] == {k: sum(r["fault"] == k for r in rows) for k in ("503", "malformed", "reset")}
    assert {r["status"] for r in rows if r["fault"] == "reset"} == {0}
    assert outcomes.count("ok") == sum(r["fault"] is None for r in rows)
    assert set(outcomes) == {"ok", "InternalServerError", "JSONDecodeError", "APIConnectionError"}
    assert all(r["charged_tokens"] > 0 for r in rows)  # a faulted request still used quota
    assert list(stats["quota"]) == [hashlib.sha256(KEY.encode()).hexdigest()[:8]]  # by hash, never the key
