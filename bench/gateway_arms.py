"""The clients bench/gateway_bench.py compares, each as a ``call(messages)`` for gateway.loadgen.drive.

* ``gateway``: nightshift's ModelGateway (quota gate + Retry-After + adaptive backoff).
* ``tenacity``: the plain openai client (its own retries off) wrapped in tenacity exponential backoff with
  jitter, the common recipe; it does not read Retry-After.
* ``sdk``: the plain openai client with its built-in retries (max_retries=20; they honour Retry-After).
* ``prefect``: Prefect's ``rate_limit`` on a global concurrency limit (slot decay = the quota rate)
  before every request, then the same tenacity retries as ``tenacity``.
Every arm stops retrying once ``stop`` is set, so an arm's stragglers do not leak into the next one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import openai
from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, stop_when_event_set, wait_random_exponential

from nightshift.gateway import ModelGateway, Quota
from nightshift.gateway.loadgen import gateway_caller

Call = Callable[[list[dict]], None]
RETRY_ON = (openai.RateLimitError, openai.APIConnectionError, openai.InternalServerError)


def gateway_arm(url: str, key: str, model: str, max_tokens: int, rpm: int, tpm: int,
                stop: threading.Event) -> tuple[Call, ModelGateway]:
    gateway = ModelGateway(url, key, max_retries=10, timeout_s=60, quota=Quota(rpm, tpm))
    return gateway_caller(gateway, model, max_tokens), gateway


def _backoff(stop: threading.Event) -> Retrying:
    return Retrying(wait=wait_random_exponential(multiplier=0.5, max=30),
                    stop=stop_after_attempt(10) | stop_when_event_set(stop), sleep=stop.wait,
                    retry=retry_if_exception_type(RETRY_ON), reraise=True)


def tenacity_arm(url: str, key: str, model: str, max_tokens: int, stop: threading.Event) -> Call:
    client = openai.OpenAI(base_url=url, api_key=key, max_retries=0, timeout=60)

    def call(messages: list[dict]) -> None:
        for attempt in _backoff(stop):
            with attempt:
                client.chat.completions.create(model=model, messages=messages, max_tokens=max_tokens)
    return call


def sdk_arm(url: str, key: str, model: str, max_tokens: int, stop: threading.Event) -> Call:
    client = openai.OpenAI(base_url=url, api_key=key, max_retries=20, timeout=60)

    def call(messages: list[dict]) -> None:
        client.chat.completions.create(model=model, messages=messages, max_tokens=max_tokens)
    return call


def prefect_arm(url: str, key: str, model: str, max_tokens: int, limit_name: str, deadline: float,
                stop: threading.Event) -> Call:
    """Needs PREFECT_API_URL set and the limit created (bench/prefect_costs.py does both)."""
    from prefect.concurrency.sync import rate_limit

    client = openai.OpenAI(base_url=url, api_key=key, max_retries=0, timeout=60)

    def call(messages: list[dict]) -> None:
        for attempt in _backoff(stop):
            with attempt:
                rate_limit(limit_name, occupy=1, strict=True, timeout_seconds=max(1.0, deadline - time.monotonic()))
                client.chat.completions.create(model=model, messages=messages, max_tokens=max_tokens)
    return call
