"""ModelGateway (one per process) and GatewaySession (one per trial, keeps that trial's accounting)."""

from __future__ import annotations

import threading

import openai
from tenacity import Retrying, retry_if_exception, stop_after_attempt

from gateway.retry import BackoffWait, is_retryable


class GatewayError(RuntimeError):
    """The endpoint could not serve a call after every retry: an infrastructure failure, not the agent's."""


class ModelGateway:
    """The single door to the model endpoint for this process."""

    def __init__(self, base_url: str, api_key: str, max_retries: int = 6, timeout_s: float = 120,
                 backoff: BackoffWait | None = None):
        # the SDK's own retries are off: tenacity retries here so every wait is counted and shaped
        self.client = openai.OpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=timeout_s)
        self.max_retries = max_retries
        self.backoff = backoff or BackoffWait()

    def session(self) -> GatewaySession:
        return GatewaySession(self)

    def resolve_model_version(self, model: str) -> str:
        """The version the endpoint really serves for ``model``: checked in /v1/models, read from a reply."""
        listed = {m.id for m in self.session().call(self.client.models.list)}
        if model not in listed:
            raise GatewayError(f"model {model!r} is not served by {self.client.base_url} "
                               f"(it lists {sorted(listed)[:10]}); fix the variant's 'model' field")
        reply = self.session().call(self.client.chat.completions.create, model=model, max_tokens=1,
                                    messages=[{"role": "user", "content": "Reply with the word ok."}])
        return reply.model or model


class GatewaySession:
    """Per-trial view of the gateway; also the harness's ModelClient."""

    def __init__(self, gateway: ModelGateway):
        self.gateway = gateway
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.rate_limited = 0
        self.retry_wait_s = 0.0
        self._lock = threading.Lock()

    def _before_sleep(self, state) -> None:
        with self._lock:
            exc = state.outcome.exception()
            if isinstance(exc, openai.RateLimitError):
                self.rate_limited += 1
            self.retry_wait_s += state.next_action.sleep if state.next_action else 0.0

    def call(self, fn, **kwargs):
        retrying = Retrying(stop=stop_after_attempt(self.gateway.max_retries + 1), wait=self.gateway.backoff,
                            retry=retry_if_exception(is_retryable), before_sleep=self._before_sleep,
                            reraise=True)
        try:
            for attempt in retrying:
                with attempt:
                    self.calls += 1
                    return fn(**kwargs)
        except openai.OpenAIError as exc:
            status = getattr(exc, "status_code", None)
            raise GatewayError(f"model call failed after {self.calls} attempt(s): "
                               f"{type(exc).__name__} {status or ''} {str(exc)[:200]}") from exc
        raise AssertionError("unreachable")

    def chat(self, *, model: str, messages: list[dict], tools: list[dict], temperature: float, seed: int,
             max_tokens: int) -> dict:
        """One chat completion; returns the assistant message as a dict plus ``model`` and ``usage``."""
        response = self.call(self.gateway.client.chat.completions.create, model=model, messages=messages,
                             tools=tools or openai.NOT_GIVEN, temperature=temperature, seed=seed,
                             max_tokens=max_tokens)
        if response.usage:
            self.input_tokens += response.usage.prompt_tokens
            self.output_tokens += response.usage.completion_tokens
        message = response.choices[0].message.model_dump(exclude_none=True)
        return {"message": message, "model": response.model, "finish_reason": response.choices[0].finish_reason}
