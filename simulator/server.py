"""The HTTP face of the simulator: an OpenAI-compatible FastAPI app.

Routes: ``GET /v1/models``, ``POST /v1/chat/completions`` and ``GET /sim/stats``. A completion goes
through, in order: API key (401), body checks (400), model (404), rate limits per key (429), latency,
fault injection (simulator/faults.py), then the policy's reply. Every completion request, whatever its
status, is counted in memory and appended as one JSON line to the request log (simulator/request_log.py);
the log holds a short hash of the key, never the key.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
import uuid
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from nightshift.simulator.cases import CaseIndex, message_text
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.faults import fault_response, pick_fault
from nightshift.simulator.policy import MODELS, reply, resolve_model
from nightshift.simulator.rate_limits import DEFAULT_MAX_TOKENS, RateLimiter
from nightshift.simulator.request_log import RequestLog, key_hash

SNAPSHOT_CREATED = 1793491200  # 2026-11-01T00:00:00Z
OWNER = "nightshift-simulator"


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
    limiter = RateLimiter(config.requests_per_minute, config.tokens_per_minute, config.count_rejected,
                          burst_s=config.burst_s)
    faults = config.fault_table()
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
        """Counts of the request log plus what each key's buckets hold now (keys by hash)."""
        return {**log.stats(), "quota": limiter.levels()}

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        key = _bearer(request)
        try:
            body = json.loads(await request.body())
        except ValueError:
            body = None
        fields = body if isinstance(body, dict) else {}
        model = fields.get("model") if isinstance(fields.get("model"), str) else None
        seed = _int_or_none(fields.get("seed"))
        listed = fields.get("messages")
        messages = listed if isinstance(listed, list) else []
        prompt_tokens = estimate_tokens(prompt_chars(messages))
        case = cases.match(messages)
        case_id = case.id if case else None

        def answer(status: int, content: dict, headers: dict[str, str] | None = None,
                   completion_tokens: int = 0, charged: int = 0) -> JSONResponse:
            log.record(key=key, model=model, seed=seed if seed is not None else 0, case_id=case_id,
                       prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, status=status,
                       charged_tokens=charged)
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

        fault = pick_fault(fault_rng, faults)
        if fault != "timeout":
            await asyncio.sleep(config.draw_latency_ms(latency_rng) / 1000)
        temperature = fields.get("temperature")
        temperature = float(temperature) if isinstance(temperature, int | float) else 0.0
        result = reply(model, case, seed or 0, messages, fields.get("tools"), fields.get("tool_choice"), temperature)
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
        if fault is not None:
            status = int(fault) if fault.isdigit() else (200 if fault in ("truncated", "malformed") else 0)
            log.record(key=key, model=model, seed=seed if seed is not None else 0, case_id=case_id,
                       prompt_tokens=prompt_tokens, completion_tokens=0, status=status,
                       charged_tokens=estimate, fault=fault)
            return await fault_response(fault, completion, decision.headers, config.hang_s)
        return answer(200, completion, decision.headers, completion_tokens, charged=estimate)

    return app
