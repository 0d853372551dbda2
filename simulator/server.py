"""The HTTP face of the simulator: an OpenAI-compatible FastAPI app.

Routes: ``GET /v1/models``, ``POST /v1/chat/completions`` and ``GET /sim/stats``. A completion goes
through, in order: API key (401), body checks (400), model (404), rate limits per key (429), latency,
fault injection (500/503), then the policy's reply. Every completion request, whatever its status, is
counted in memory and appended as one JSON line to the request log; the log holds a short hash of the
key, never the key.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import random
import threading
import time
import uuid
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from simulator.cases import CaseIndex, message_text
from simulator.config import SimulatorConfig
from simulator.policy import MODELS, reply, resolve_model
from simulator.rate_limits import DEFAULT_MAX_TOKENS, RateLimiter

SNAPSHOT_CREATED = 1793491200  # 2026-11-01T00:00:00Z
OWNER = "nightshift-simulator"


def key_hash(key: str) -> str:
    """First 8 hex digits of sha256 of the API key: enough to tell keys apart, useless to an attacker."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def estimate_tokens(text_chars: int) -> int:
    return math.ceil(text_chars / 4)


def prompt_chars(messages: list) -> int:
    """Characters of all message contents plus the arguments of the tool calls in them."""
    total = 0
    for message in messages:
        if not isinstance(message, dict):
            continue
        total += len(message_text(message))
        for call in message.get("tool_calls") or []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict):
                total += len(str(function.get("arguments") or ""))
    return total


def error_body(message: str, kind: str, code: str | None = None, param: str | None = None) -> dict:
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


class RequestLog:
    """Counts requests by status in memory and appends one JSON line per request to ``path``."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.requests = 0
        self.tokens = 0
        self.by_status: dict[str, int] = {}
        self._lock = threading.Lock()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)

    def record(self, *, key: str | None, model: str | None, seed: int | None, case_id: str | None,
               prompt_tokens: int, completion_tokens: int, status: int) -> None:
        row = {"t": round(time.time(), 3), "key_hash": key_hash(key) if key else None, "model": model,
               "seed": seed, "case_id": case_id, "prompt_tokens": prompt_tokens,
               "completion_tokens": completion_tokens, "status": status}
        with self._lock:
            self.requests += 1
            self.by_status[str(status)] = self.by_status.get(str(status), 0) + 1
            if status == 200:
                self.tokens += prompt_tokens + completion_tokens
            if self.path is not None:
                with self.path.open("a") as fh:
                    fh.write(json.dumps(row) + "\n")

    def stats(self) -> dict:
        with self._lock:
            return {"requests": self.requests, "by_status": dict(self.by_status), "tokens": self.tokens}


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def create_app(config: SimulatorConfig, suite_dirs: list[Path], log_path: Path | None = None) -> FastAPI:
    """The simulator app for ``config``, playing the cases of ``suite_dirs``, logging to ``log_path``."""
    cases = CaseIndex.from_suites(suite_dirs)
    limiter = RateLimiter(config.requests_per_minute, config.tokens_per_minute, config.count_rejected)
    log = RequestLog(log_path)
    latency_rng = random.Random(f"{config.seed}:latency")
    fault_rng = random.Random(f"{config.seed}:faults")
    app = FastAPI(title="nightshift model simulator", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.cases = cases
    app.state.log = log
    app.state.limiter = limiter

    @app.get("/v1/models")
    async def list_models() -> dict:
        data = []
        for profile in MODELS.values():
            for model_id in (profile.name, profile.snapshot):
                data.append({"id": model_id, "object": "model", "created": SNAPSHOT_CREATED,
                             "owned_by": OWNER})
        return {"object": "list", "data": data}

    @app.get("/sim/stats")
    async def stats() -> dict:
        return log.stats()

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> JSONResponse:
        key = _bearer(request)
        try:
            body = json.loads(await request.body())
        except ValueError:
            body = None
        fields = body if isinstance(body, dict) else {}
        model = fields.get("model") if isinstance(fields.get("model"), str) else None
        seed = _int_or_none(fields.get("seed"))
        messages = fields.get("messages") if isinstance(fields.get("messages"), list) else []
        prompt_tokens = estimate_tokens(prompt_chars(messages))
        case = cases.match(messages)
        case_id = case.id if case else None

        def answer(status: int, content: dict, headers: dict[str, str] | None = None,
                   completion_tokens: int = 0) -> JSONResponse:
            log.record(key=key, model=model, seed=seed if seed is not None else 0, case_id=case_id,
                       prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, status=status)
            out_headers = {"x-request-id": f"req_{uuid.uuid4().hex}", **(headers or {})}
            return JSONResponse(content, status_code=status, headers=out_headers)

        if key is None:
            return answer(401, error_body(
                "You didn't provide an API key. You need to provide your API key in an Authorization header "
                "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "invalid_request_error"))
        if not isinstance(body, dict):
            return answer(400, error_body("We could not parse the JSON body of your request.",
                                          "invalid_request_error"))
        if model is None:
            return answer(400, error_body("you must provide a model parameter", "invalid_request_error",
                                          param="model"))
        if not isinstance(fields.get("messages"), list) or not messages:
            return answer(400, error_body("'messages' must be a non-empty array", "invalid_request_error",
                                          param="messages"))
        profile = resolve_model(model)
        if profile is None:
            return answer(404, error_body(
                f"The model `{model}` does not exist or you do not have access to it.",
                "invalid_request_error", code="model_not_found"))
        if fields.get("stream") is True:
            return answer(400, error_body("The simulator does not support stream=true; send stream=false.",
                                          "invalid_request_error", code="unsupported_value", param="stream"))
        max_tokens = (_int_or_none(fields.get("max_completion_tokens"))
                      or _int_or_none(fields.get("max_tokens")))
        estimate = prompt_tokens + (max_tokens or DEFAULT_MAX_TOKENS)
        decision = limiter.acquire(key_hash(key), estimate, profile.name)
        if not decision.allowed:
            return answer(429, decision.error_body(), decision.rejection_headers())

        if config.latency_ms > 0:
            delay_ms = (latency_rng.lognormvariate(config.latency_mu(), config.latency_sigma)
                        if config.latency_sigma > 0 else config.latency_ms)
            await asyncio.sleep(delay_ms / 1000)
        if config.fault_rate > 0 and fault_rng.random() < config.fault_rate:
            if fault_rng.random() < 0.5:
                return answer(500, error_body("The server had an error while processing your request. "
                                              "Sorry about that!", "server_error"), decision.headers)
            return answer(503, error_body("The engine is currently overloaded, please try again later.",
                                          "server_error"), decision.headers)

        result = reply(model, case, seed or 0, messages, fields.get("tools"), fields.get("tool_choice"))
        message: dict = {"role": "assistant", "content": result.content, "refusal": None}
        arguments = ""
        if result.tool_call is not None:
            message["tool_calls"] = [result.tool_call]
            arguments = result.tool_call["function"]["arguments"]
        completion_tokens = max(1, estimate_tokens(len(result.content) + len(arguments)))
        completion = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": profile.snapshot,
            "system_fingerprint": "fp_nightshift_sim",
            "choices": [{"index": 0, "message": message, "finish_reason": result.finish_reason,
                         "logprobs": None}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens},
        }
        return answer(200, completion, decision.headers, completion_tokens)

    return app
