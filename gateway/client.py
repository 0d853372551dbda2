"""ModelGateway (one per process) and GatewaySession (one per trial, keeps that trial's accounting).

A chat call, top to bottom: estimate its tokens, wait on the process's quota gate, send it, read the
quota headers (learn, clamp, or pause the process on a 429), parse the reply, correct the token bucket
and the estimator from ``usage``, add tokens and cost to the trial. Any failure worth retrying goes
round again after a backoff (tenacity); after the last try it is a ``GatewayError``, which the harness
turns into ``infra_error``. The API key never appears in an error message or a log line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import httpx
import openai
from openai.types.chat import ChatCompletion
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from nightshift.errors import GatewayError, RequestRejected
from nightshift.experiment.config import ModelEndpoint
from nightshift.gateway.buckets import Quota, QuotaGate
from nightshift.gateway.fleet import FleetBuckets, fleet_id
from nightshift.gateway.headers import RateLimitHeaders
from nightshift.gateway.retry import BackoffWait, failure_kind, is_retryable, too_large
from nightshift.gateway.slots import api_slot
from nightshift.gateway.usage import Price, TokenEstimator, cost_usd, prompt_chars
from nightshift.protocols import TranslationRefused
from nightshift.protocols.upstream import UPSTREAMS

log = logging.getLogger("nightshift.gateway")
FORWARDED_FIELDS = ("model", "messages", "tools", "tool_choice", "temperature", "top_p", "seed", "max_tokens",
                    "max_completion_tokens", "stop", "response_format", "parallel_tool_calls", "presence_penalty",
                    "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "n", "user")
DEFAULT_MAX_TOKENS = 1024  # what the token estimate assumes when a request sets no max_tokens


class ModelGateway:
    """The single door to the model endpoint for this process: one client, one quota gate, one price table."""

    def __init__(self, base_url: str, api_key: str, max_retries: int = 6, timeout_s: float = 120,
                 backoff: BackoffWait | None = None, quota: Quota | None = None,
                 prices: Mapping[str, Price] | None = None, concurrency_limit: str | None = None,
                 concurrency_slots: int = 32, quota_store: str | None = None, protocol: str = "chat"):
        # the SDK's own retries are off: tenacity retries here so every wait is counted and shaped
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=timeout_s)
        # an endpoint of another wire protocol gets the same chat-shaped calls, translated on the wire
        self.protocol = protocol
        self.upstream = UPSTREAMS.get(protocol)
        self.wire_headers: dict[str, Any] = {}
        if protocol == "anthropic":  # its key goes in x-api-key, not as a bearer token
            self.wire_headers = {"Authorization": openai.Omit(), "x-api-key": api_key}
        if self.upstream is not None:
            self.wire_headers.update(self.upstream.headers)
        self._secret = api_key
        self.max_retries = max_retries
        self.backoff = backoff or BackoffWait()
        quota = quota or Quota()
        fleet = FleetBuckets(quota_store, fleet_id(base_url, api_key), quota.burst_s) if quota_store else None
        self.gate = QuotaGate(quota, fleet=fleet)
        self.estimator = TokenEstimator()
        self.prices: Mapping[str, Price] = prices or {}
        self.concurrency_limit = concurrency_limit
        self.concurrency_slots = concurrency_slots
        self._unpriced: set[str] = set()

    @classmethod
    def from_settings(cls, base_url: str, api_key: str, settings: ModelEndpoint, concurrency_slots: int = 32
                      ) -> ModelGateway:
        """A gateway configured by an experiment file's ``model`` section (experiment.config.ModelEndpoint)."""
        quota = Quota(settings.requests_per_minute, settings.tokens_per_minute, settings.share)
        return cls(base_url, api_key, max_retries=settings.max_retries, timeout_s=settings.timeout_s,
                   quota=quota, prices=settings.prices, concurrency_limit=settings.concurrency_limit,
                   concurrency_slots=concurrency_slots, quota_store=settings.quota_store, protocol=settings.protocol)

    def session(self) -> GatewaySession:
        return GatewaySession(self)

    def scrub(self, text: str) -> str:
        """``text`` with the API key masked, for anything that may reach a log or a result file."""
        return text.replace(self._secret, "***") if self._secret else text

    def resolve_model_version(self, model: str) -> str:
        """The version the endpoint really serves for ``model``: checked in /v1/models, read from a reply.
        The reply's headers also teach the quota gate a quota the experiment did not state."""
        session = self.session()
        listed = {m.id for m in session.call(self.client.models.list, extra_headers=self.wire_headers)}
        if model not in listed:
            raise GatewayError(f"model {model!r} is not served by {self.client.base_url} "
                               f"(it lists {sorted(listed)[:10]}); fix the variant's 'model' field")
        reply = session.chat(model=model, messages=[{"role": "user", "content": "Reply with the word ok."}],
                             tools=[], temperature=0.0, seed=0, max_tokens=1)
        return reply["model"] or model

    def price_of(self, model: str, served: str | None, input_tokens: int, output_tokens: int) -> float:
        cost = cost_usd(self.prices, (model, served), input_tokens, output_tokens)
        if cost is None:
            if self.prices and model not in self._unpriced:
                self._unpriced.add(model)
                log.warning("no price for model %r in model.prices; its cost is counted as 0", model)
            return 0.0
        return cost


class GatewaySession:
    """Per-trial view of the gateway; also the harness's ModelClient.

    Accounting: ``calls`` requests sent (retries included), ``input_tokens``/``output_tokens`` from usage,
    ``rate_limited`` 429s met, ``retry_wait_s`` backoff sleeps, ``quota_wait_s`` time blocked on the quota
    gate and the Prefect API slot (429 pauses included), ``failed_call_s`` time spent in calls that failed
    (timeouts first of all), ``generate_s`` time of the calls that succeeded, ``cost_usd`` from the price
    table. ``waiting_s`` is everything that is the endpoint's doing, not the agent's: a harness's working
    clock subtracts it (harnesses/working_clock.py).
    """

    def __init__(self, gateway: ModelGateway):
        self.gateway = gateway
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.rate_limited = 0
        self.retry_wait_s = 0.0
        self.quota_wait_s = 0.0
        self.failed_call_s = 0.0
        self.generate_s = 0.0
        self.cost_usd = 0.0
        self.failures: dict[str, int] = {}
        self._lock = threading.Lock()

    @property
    def waiting_s(self) -> float:
        """Seconds this trial waited on the endpoint: quota and slot waits, backoff sleeps, failed calls."""
        with self._lock:
            return self.quota_wait_s + self.retry_wait_s + self.failed_call_s

    @contextmanager
    def api_slot(self) -> Iterator[None]:
        """Hold the gateway's Prefect concurrency slot (if one is configured) around a trial's model calls."""
        with api_slot(self.gateway.concurrency_limit, self.gateway.concurrency_slots) as waited:
            with self._lock:
                self.quota_wait_s += waited[0]
            yield

    def _before_sleep(self, state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        kind = failure_kind(exc) if exc else "unknown"
        with self._lock:
            self.failures[kind] = self.failures.get(kind, 0) + 1
            self.retry_wait_s += state.next_action.sleep if state.next_action else 0.0
        log.debug("model call failed (%s); retry %d after %.2f s", kind, state.attempt_number,
                  state.next_action.sleep if state.next_action else 0.0)

    def call(self, fn: Callable[..., Any], **kwargs: Any) -> Any:
        """``fn(**kwargs)`` with retries; a GatewayError after the last one (or a non-retryable failure)."""
        retrying = Retrying(stop=stop_after_attempt(self.gateway.max_retries + 1), wait=self.gateway.backoff,
                            retry=retry_if_exception(is_retryable), before_sleep=self._before_sleep,
                            reraise=True)
        try:
            for attempt in retrying:
                with attempt:
                    return fn(**kwargs)
        except (openai.OpenAIError, ValueError) as exc:
            attempts = retrying.statistics.get("attempt_number", 1)
            rejected = too_large(exc) or isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError
                                                    | TranslationRefused)
            raise (RequestRejected if rejected else GatewayError)(self.gateway.scrub(
                f"model call failed after {attempts} attempt(s), last: {failure_kind(exc)} "
                f"({type(exc).__name__}: {str(exc)[:200]})")) from exc
        raise AssertionError("unreachable")

    def _send_chat(self, kwargs: dict, max_tokens: int) -> Any:
        """One attempt: wait for quota, send, read the headers, parse, settle the token estimate."""
        gw = self.gateway
        chars = prompt_chars(kwargs["messages"])
        estimate = gw.estimator.prompt_tokens(chars) + max_tokens
        limit = gw.gate.quota.tokens_per_minute
        if limit and estimate > limit:  # it could never be admitted: say so rather than wait for ever
            raise RequestRejected(f"a request of about {estimate} tokens (prompt + max_tokens) exceeds the key's "
                               f"{limit:.0f} tokens/min; lower the variant's max_tokens or shorten the prompt")
        waited = gw.gate.acquire(estimate)
        with self._lock:
            self.quota_wait_s += waited
            self.calls += 1
        sent = time.monotonic()
        try:
            response = self._exchange(kwargs, estimate, chars, max_tokens)
        except BaseException:
            with self._lock:
                self.failed_call_s += time.monotonic() - sent
            raise
        with self._lock:
            self.generate_s += time.monotonic() - sent
        return response

    def _exchange(self, kwargs: dict, estimate: int, chars: int, max_tokens: int) -> Any:
        """Send one request and read its reply (quota headers learned, 429 pause started)."""
        gw = self.gateway
        try:
            raw = self._post(kwargs)
        except openai.APIStatusError as exc:
            headers = RateLimitHeaders.parse(exc.response.headers)
            if isinstance(exc, openai.RateLimitError) and not too_large(exc):
                with self._lock:
                    self.rate_limited += 1
                pause = gw.gate.rate_limited(headers)
                log.debug("429 from the endpoint: every caller of this process pauses %.2f s", pause)
            else:
                gw.gate.observe(headers)
            raise
        gw.gate.observe(RateLimitHeaders.parse(raw.headers))
        # a truncated or malformed body raises here, and is retried
        response = raw.parse() if gw.upstream is None else ChatCompletion.model_validate(
            gw.upstream.to_chat(raw.json()))
        if response.usage:
            gw.gate.settle(estimate, response.usage.prompt_tokens + max_tokens)
            gw.estimator.learn(chars, response.usage.prompt_tokens)
        return response

    def _post(self, kwargs: dict) -> Any:
        """One request in the endpoint's protocol; the raw response (its headers are read before its body)."""
        gw = self.gateway
        if gw.upstream is None:
            return gw.client.chat.completions.with_raw_response.create(**kwargs)
        body = gw.upstream.to_wire({k: v for k, v in kwargs.items() if v is not openai.NOT_GIVEN})
        return gw.client.post(gw.upstream.path, cast_to=httpx.Response, body=body,
                              options={"headers": gw.wire_headers})

    def chat(self, *, model: str, messages: list[dict], tools: list[dict], temperature: float, seed: int,
             max_tokens: int) -> dict:
        """One chat completion; returns the assistant message as a dict plus ``model``, ``finish_reason`` and
        ``usage`` (this call's tokens, for the trajectory)."""
        kwargs = {"model": model, "messages": messages, "tools": tools or openai.NOT_GIVEN,
                  "temperature": temperature, "seed": seed, "max_tokens": max_tokens}
        response = self.call(self._send_chat, kwargs=kwargs, max_tokens=max_tokens)
        self._account(model, response)
        message = response.choices[0].message.model_dump(exclude_none=True)
        usage = ({"input_tokens": response.usage.prompt_tokens, "output_tokens": response.usage.completion_tokens}
                 if response.usage else None)
        return {"message": message, "model": response.model, "finish_reason": response.choices[0].finish_reason,
                "usage": usage}

    def complete(self, body: Mapping[str, Any]) -> dict:
        """A chat-completions request body as an agent sent it (through the per-trial model proxy), sent with
        the same quota, retries and accounting as ``chat``; returns the completion as JSON. Only the fields
        of the chat-completions API are forwarded."""
        kwargs = {k: body[k] for k in FORWARDED_FIELDS if body.get(k) is not None}
        max_tokens = kwargs.get("max_completion_tokens") or kwargs.get("max_tokens") or DEFAULT_MAX_TOKENS
        response = self.call(self._send_chat, kwargs=kwargs, max_tokens=max_tokens)
        self._account(kwargs["model"], response)
        return response.model_dump(mode="json", exclude_none=True)

    def _account(self, model: str, response: Any) -> None:
        if response.usage:
            usage = response.usage
            cost = self.gateway.price_of(model, response.model, usage.prompt_tokens, usage.completion_tokens)
            with self._lock:
                self.input_tokens += usage.prompt_tokens
                self.output_tokens += usage.completion_tokens
                self.cost_usd += cost

    def summary(self) -> dict:
        """The trial's accounting as a plain dict."""
        with self._lock:
            return {"calls": self.calls, "input_tokens": self.input_tokens, "output_tokens": self.output_tokens,
                    "rate_limited": self.rate_limited, "retry_wait_s": round(self.retry_wait_s, 3),
                    "quota_wait_s": round(self.quota_wait_s, 3), "failed_call_s": round(self.failed_call_s, 3),
                    "generate_s": round(self.generate_s, 3), "cost_usd": round(self.cost_usd, 6),
                    "failures": dict(self.failures)}
