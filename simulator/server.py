"""The HTTP face of the simulator: a FastAPI app speaking the three wire protocols agents use.

Routes: ``GET /v1/models``, ``POST /v1/chat/completions``, ``POST /v1/responses`` (OpenAI Responses),
``POST /v1/messages`` and ``/v1/messages/count_tokens`` (Anthropic), and ``GET /sim/stats``. A Responses or
Messages request is read through the same translation the model proxy uses (protocols/), so all three
take one path: API key (401; a bearer token or ``x-api-key``), body checks (400), model (404), rate limits per
key (429 with Retry-After), latency, fault injection (simulator/faults.py), then the policy's reply (or, to
nightshift's judge scanner, the judge policy's: simulator/judge_policy.py), as JSON
or as the protocol's stream (``stream: true``). Errors take each protocol's shape: OpenAI's ``{"error": ...}``,
Anthropic's ``{"type": "error", ...}``, whose overload is 529. Every completion request, whatever its status,
is counted in memory and appended as one JSON line to the request log (simulator/request_log.py); the log
holds a short hash of the key, never the key.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
import uuid
from collections import OrderedDict
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from nightshift.protocols import (
    CHAT,
    MESSAGES,
    RESPONSES,
    Failure,
    ProviderToolRefused,
    TranslationRefused,
    WireProtocol,
    replay,
)
from nightshift.simulator.cases import CaseIndex, message_text
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.faults import fault_response, pick_fault
from nightshift.simulator.judge_policy import cut_to, is_judge_request, judge_answer
from nightshift.simulator.policy import MODELS, Reply, reply, resolve_model
from nightshift.simulator.rate_limits import DEFAULT_MAX_TOKENS, RateLimiter
from nightshift.simulator.request_log import RequestLog, key_hash

KEPT_CONVERSATIONS = 4096  # Responses conversations that previous_response_id may continue
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


def _bearer(request: Request) -> str | None:
    """The caller's key: a bearer token (OpenAI's SDKs) or ``x-api-key`` (Anthropic's)."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() == "bearer" and token:
        return token
    return request.headers.get("x-api-key", "").strip() or None


def _anthropic_headers(headers: dict[str, str]) -> dict[str, str]:
    """Anthropic's names for the quota headers, beside OpenAI's (clients of either read their own)."""
    out = dict(headers)
    for kind in ("requests", "tokens"):
        for what in ("limit", "remaining"):
            if f"x-ratelimit-{what}-{kind}" in headers:
                out[f"anthropic-ratelimit-{kind}-{what}"] = headers[f"x-ratelimit-{what}-{kind}"]
    return out


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
    conversations: OrderedDict[str, list[dict]] = OrderedDict()  # Responses id -> conversation, newest last
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
        return await serve(request, CHAT)

    @app.post("/v1/responses")
    async def responses(request: Request) -> Response:
        return await serve(request, RESPONSES)

    @app.post("/v1/messages")
    async def messages_route(request: Request) -> Response:
        return await serve(request, MESSAGES)

    @app.post("/v1/messages/count_tokens")
    async def count_tokens(request: Request) -> Response:
        try:
            body = json.loads(await request.body())
            chat = MESSAGES.to_chat({"max_tokens": 1, **body})
        except (ValueError, TypeError, AttributeError) as exc:
            shape = MESSAGES.error(Failure.invalid_request, str(exc) or "the body is not a JSON object")
            return JSONResponse(shape.body, shape.status)
        if _bearer(request) is None:
            shape = MESSAGES.error(Failure.authentication, "x-api-key header is required")
            return JSONResponse(shape.body, shape.status)
        chars = prompt_chars(chat["messages"]) + len(json.dumps(chat.get("tools") or []))
        return JSONResponse({"input_tokens": estimate_tokens(chars)})

    async def serve(request: Request, protocol: WireProtocol) -> Response:
        key = _bearer(request)
        try:
            body = json.loads(await request.body())
        except ValueError:
            body = None
        wire = body if isinstance(body, dict) else {}
        refusal: TranslationRefused | None = None
        fields = wire
        if protocol is not CHAT and wire:
            try:
                history = conversations.get(str(wire.get("previous_response_id")))
                if wire.get("previous_response_id") and history is None:
                    raise TranslationRefused(f"Previous response with id '{wire['previous_response_id']}' not "
                                             f"found.", "previous_response_id")
                fields = protocol.to_chat(wire, history)
            except TranslationRefused as exc:
                refusal = exc
        model = fields.get("model") if isinstance(fields.get("model"), str) else None
        seed = _int_or_none(fields.get("seed"))
        listed = fields.get("messages")
        messages = listed if isinstance(listed, list) else []
        prompt_tokens = estimate_tokens(prompt_chars(messages))
        case = cases.match(messages)
        case_id = case.id if case else None

        def record(status: int, completion_tokens: int = 0, charged: int = 0, fault: str | None = None) -> None:
            log.record(key=key, model=model, seed=seed if seed is not None else 0, case_id=case_id,
                       prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, status=status,
                       charged_tokens=charged, fault=fault, protocol=protocol.name)

        def headers_of(extra: dict[str, str] | None) -> dict[str, str]:
            out = {"x-request-id": f"req_{uuid.uuid4().hex}", **(extra or {})}
            return {**_anthropic_headers(out), "request-id": out["x-request-id"]} if protocol is MESSAGES else out

        def fail(failure: Failure, message: str, code: str | None = None, param: str | None = None,
                 headers: dict[str, str] | None = None, body: dict | None = None) -> JSONResponse:
            shape = protocol.error(failure, message, code, param)
            content = body if body is not None and protocol is not MESSAGES else shape.body
            record(shape.status)
            return JSONResponse(content, status_code=shape.status, headers=headers_of(headers))

        if key is None:
            return fail(Failure.authentication,
                        "You didn't provide an API key. You need to provide your API key in an Authorization header "
                        "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
        if not isinstance(body, dict):
            return fail(Failure.invalid_request, "We could not parse the JSON body of your request.")
        if refusal is not None:
            code = "provider_tool_refused" if isinstance(refusal, ProviderToolRefused) else "unsupported_value"
            return fail(Failure.invalid_request, f"the simulator cannot serve this request: {refusal}", code,
                        refusal.param)
        if model is None:
            return fail(Failure.invalid_request, "you must provide a model parameter", param="model")
        if not isinstance(fields.get("messages"), list) or not messages:
            return fail(Failure.invalid_request, "'messages' must be a non-empty array", param="messages")
        profile = resolve_model(model)
        if profile is None:
            return fail(Failure.not_found, f"The model `{model}` does not exist or you do not have access to it.",
                        "model_not_found")
        max_tokens = (_int_or_none(fields.get("max_completion_tokens"))
                      or _int_or_none(fields.get("max_tokens")))
        estimate = prompt_tokens + (max_tokens or DEFAULT_MAX_TOKENS)
        decision = limiter.acquire(key_hash(key), estimate, profile.name)
        if not decision.allowed:
            return fail(Failure.rate_limit, decision.message, "rate_limit_exceeded",
                        headers=decision.rejection_headers(), body=decision.error_body())

        fault = pick_fault(fault_rng, faults)
        if fault != "timeout":
            await asyncio.sleep(config.draw_latency_ms(latency_rng) / 1000)
        completion, completion_tokens = _completion(model, profile.snapshot, case, seed, messages, fields)
        reply = protocol.from_chat(completion, wire)
        if protocol is RESPONSES:
            conversations[reply["id"]] = RESPONSES.history(wire, fields, completion)
            while len(conversations) > KEPT_CONVERSATIONS:
                conversations.popitem(last=False)
        streamed = wire.get("stream") is True
        if fault is not None:
            status = int(fault) if fault.isdigit() else (200 if fault in ("truncated", "malformed") else 0)
            record(status, charged=estimate, fault=fault)
            text = "".join(protocol.stream(reply, wire)) if streamed else json.dumps(reply)
            return await fault_response(fault, protocol, text, headers_of(decision.headers), config.hang_s,
                                        "text/event-stream" if streamed else "application/json")
        record(200, completion_tokens, charged=estimate)
        if streamed:
            return StreamingResponse(replay(protocol.stream(reply, wire)), media_type="text/event-stream",
                                     headers={**headers_of(decision.headers), "cache-control": "no-cache"})
        return JSONResponse(reply, status_code=200, headers=headers_of(decision.headers))

    return app


def _completion(model: str, snapshot: str, case, seed: int | None, messages: list, fields: dict) -> tuple[dict, int]:
    """The chat completion the policy answers (whatever protocol asked), and its completion tokens."""
    temperature = fields.get("temperature")
    temperature = float(temperature) if isinstance(temperature, int | float) else 0.0
    if is_judge_request(messages):  # nightshift's judge scanner asking about a finished trial (judge_policy.py)
        limit = _int_or_none(fields.get("max_completion_tokens")) or _int_or_none(fields.get("max_tokens"))
        answer, cut = cut_to(judge_answer(messages), limit)
        result = Reply(answer, "length" if cut else "stop")
    else:
        result = reply(model, case, seed or 0, messages, fields.get("tools"), fields.get("tool_choice"), temperature)
    message: dict = {"role": "assistant", "content": result.content, "refusal": None}
    arguments = ""
    if result.tool_call is not None:
        message["tool_calls"] = [result.tool_call]
        arguments = result.tool_call["function"]["arguments"]
    completion_tokens = max(1, estimate_tokens(len(result.content) + len(arguments)))
    prompt_tokens = estimate_tokens(prompt_chars(messages))
    completion = {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": snapshot,
        "system_fingerprint": "fp_nightshift_sim",
        "choices": [{"index": 0, "message": message, "finish_reason": result.finish_reason, "logprobs": None}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }
    return completion, completion_tokens
