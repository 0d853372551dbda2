"""Anthropic Messages (``/v1/messages``, as Claude Code speaks it) to and from Chat Completions.

Request: ``system`` (a string or text blocks) becomes the system message; ``tool_use`` blocks become the
assistant's tool calls and ``tool_result`` blocks the tool messages that answer them (placed first, as chat
requires); a ``system`` turn inside ``messages`` (Claude Code's) is a chat system message there; text and
base64/URL images pass as content; ``thinking`` blocks and settings are dropped (the endpoint reads and writes
none), ``cache_control`` is ignored. Custom tools (``input_schema``) become
function tools; ``tool_choice`` auto/any/tool/none and ``disable_parallel_tool_use`` map onto chat's.
``top_k`` and Anthropic-schema client tools (bash_*, text_editor_*, computer_*) cannot be carried and are
refused; server tools (web_search_*, web_fetch_*, code_execution_*, ``mcp_servers``) are refused as
provider-side. Reply: text and ``tool_use`` blocks with ``stop_reason``; streamed as message_start,
content_block_start/delta/stop, message_delta, message_stop. Errors: {"type": "error", "error": {...}}.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from nightshift.protocols.base import (
    ErrorShape,
    Failure,
    ProviderToolRefused,
    Unexpressible,
    WireProtocol,
    arguments_object,
    choice_of,
    chunks,
    new_id,
    sse,
    text_of,
    usage_of,
)

SERVER_TOOLS = ("web_search", "web_fetch", "code_execution", "mcp", "tool_search")
ANTHROPIC_SCHEMA_TOOLS = ("bash_", "text_editor_", "computer_")
SERVER_BLOCKS = ("server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
                 "bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "mcp_tool_use",
                 "mcp_tool_result", "container_upload")
DROPPED_BLOCKS = ("thinking", "redacted_thinking")
STOP_REASONS = {"stop": "end_turn", "tool_calls": "tool_use", "function_call": "tool_use", "length": "max_tokens",
                "content_filter": "refusal"}
ERRORS: dict[Failure, tuple[int, str]] = {
    Failure.invalid_request: (400, "invalid_request_error"),
    Failure.authentication: (401, "authentication_error"),
    Failure.permission: (403, "permission_error"),
    Failure.not_found: (404, "not_found_error"),
    Failure.too_large: (413, "request_too_large"),
    Failure.rate_limit: (429, "rate_limit_error"),
    Failure.limit_reached: (403, "permission_error"),
    Failure.server: (500, "api_error"),
    Failure.overloaded: (529, "overloaded_error"),
    Failure.bad_gateway: (502, "api_error"),
}
MAX_STOP = 4  # chat's limit on stop sequences


def _tools(tools: object) -> list[dict[str, Any]]:
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise Unexpressible("tools: must be an array", "tools")
    server = [str(t.get("type")) for t in tools if isinstance(t, dict) and str(t.get("type")).startswith(SERVER_TOOLS)]
    if server:
        raise ProviderToolRefused(server, "tools")
    out = []
    for index, tool in enumerate(tools):
        kind = tool.get("type") if isinstance(tool, dict) else None
        if isinstance(kind, str) and kind.startswith(ANTHROPIC_SCHEMA_TOOLS):
            raise Unexpressible(f"tools.{index}: {kind!r} has a schema only Anthropic's servers know; define it as "
                                f"a custom tool with an input_schema", f"tools.{index}")
        if not isinstance(tool, dict) or kind not in (None, "custom") or not isinstance(tool.get("name"), str):
            raise Unexpressible(f"tools.{index}: only custom tools (a name and an input_schema) can be forwarded",
                                f"tools.{index}")
        function = {"name": tool["name"], "parameters": tool.get("input_schema") or {"type": "object"}}
        if tool.get("description"):
            function["description"] = tool["description"]
        out.append({"type": "function", "function": function})
    return out


def _tool_choice(choice: object) -> tuple[object, bool | None]:
    """chat's tool_choice and parallel_tool_calls for Anthropic's tool_choice."""
    if choice is None:
        return None, None
    if not isinstance(choice, dict):
        raise Unexpressible("tool_choice: must be an object such as {\"type\": \"auto\"}", "tool_choice")
    parallel = False if choice.get("disable_parallel_tool_use") else None
    kind = choice.get("type")
    if kind in ("auto", "none"):
        return kind, parallel
    if kind == "any":
        return "required", parallel
    if kind == "tool" and isinstance(choice.get("name"), str):
        return {"type": "function", "function": {"name": choice["name"]}}, parallel
    raise Unexpressible(f"tool_choice: {kind!r} is not auto, any, tool or none", "tool_choice")


def _image(block: dict[str, Any], field: str) -> dict[str, Any]:
    given = block.get("source")
    source: dict[str, Any] = given if isinstance(given, dict) else {}
    if source.get("type") == "base64":
        url = f"data:{source.get('media_type')};base64,{source.get('data')}"
    elif source.get("type") == "url":
        url = str(source.get("url"))
    else:
        raise Unexpressible(f"{field}: an image source of type {source.get('type')!r} cannot be forwarded", field)
    return {"type": "image_url", "image_url": {"url": url}}


def _tool_result(block: dict[str, Any], field: str) -> dict[str, Any]:
    text = text_of(block.get("content"), f"{field}.content")
    if block.get("is_error"):
        text = f"Error: {text}"  # chat has no error flag on a tool message: the text carries it
    return {"role": "tool", "tool_call_id": block.get("tool_use_id"), "content": text}


def _turn(message: object, index: int) -> list[dict[str, Any]]:
    """One Anthropic message as chat messages (a user turn may become tool messages plus a user message)."""
    field = f"messages.{index}"
    if not isinstance(message, dict) or message.get("role") not in ("user", "assistant", "system"):
        raise Unexpressible(f"{field}.role: must be 'user', 'assistant' or 'system'", f"{field}.role")
    role, content = message["role"], message.get("content")
    if role == "system":  # Claude Code sends its environment notes as a system turn mid-conversation
        return [{"role": "system", "content": text_of(content, f"{field}.content")}]
    if isinstance(content, str):
        return [{"role": role, "content": content}]
    if not isinstance(content, list):
        raise Unexpressible(f"{field}.content: must be a string or an array of content blocks", f"{field}.content")
    tools: list[dict[str, Any]] = []
    parts: list[dict[str, Any]] = []
    calls: list[dict[str, Any]] = []
    for number, block in enumerate(content):
        where = f"{field}.content.{number}"
        kind = block.get("type") if isinstance(block, dict) else None
        if not isinstance(block, dict):
            raise Unexpressible(f"{where}: must be an object", where)
        if kind in SERVER_BLOCKS:
            raise ProviderToolRefused([str(kind)], where)
        if kind == "text":
            parts.append({"type": "text", "text": str(block.get("text", ""))})
        elif kind == "image" and role == "user":
            parts.append(_image(block, where))
        elif kind == "tool_result" and role == "user":
            tools.append(_tool_result(block, where))
        elif kind == "tool_use" and role == "assistant":
            calls.append({"id": block.get("id"), "type": "function",
                          "function": {"name": block.get("name"), "arguments": json.dumps(block.get("input") or {})}})
        elif kind in DROPPED_BLOCKS:
            continue
        else:
            raise Unexpressible(f"{where}: a {kind!r} block in a {role} message cannot be forwarded to this night's "
                                f"endpoint", where)
    if role == "assistant":
        text = "".join(p["text"] for p in parts)
        reply: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            reply["tool_calls"] = calls
        return [reply]
    out = list(tools)
    if parts:
        only_text = all(p["type"] == "text" for p in parts)
        out.append({"role": "user", "content": "\n".join(p["text"] for p in parts) if only_text else parts})
    return out


def _system(system: object) -> str:
    return text_of(system, "system")


class MessagesProtocol(WireProtocol):
    name = "anthropic"

    def to_chat(self, body: dict[str, Any], history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        if body.get("mcp_servers"):
            raise ProviderToolRefused(["mcp_servers"], "mcp_servers")
        if not isinstance(body.get("max_tokens"), int):
            raise Unexpressible("max_tokens: Field required (an integer)", "max_tokens")
        if body.get("top_k") is not None:
            raise Unexpressible("top_k: the night's chat endpoint has no top_k; leave it unset", "top_k")
        raw = body.get("messages")
        if not isinstance(raw, list) or not raw:
            raise Unexpressible("messages: must be a non-empty array", "messages")
        messages = [m for index, message in enumerate(raw) for m in _turn(message, index)]
        system = _system(body.get("system"))
        if system:
            messages.insert(0, {"role": "system", "content": system})
        chat: dict[str, Any] = {"model": body.get("model"), "messages": messages, "max_tokens": body["max_tokens"]}
        tools = _tools(body.get("tools"))
        if tools:
            chat["tools"] = tools
        choice, parallel = _tool_choice(body.get("tool_choice"))
        if choice is not None:
            chat["tool_choice"] = choice
        if parallel is not None:
            chat["parallel_tool_calls"] = parallel
        for field in ("temperature", "top_p"):
            if body.get(field) is not None:
                chat[field] = body[field]
        stops = body.get("stop_sequences")
        if stops:
            if not isinstance(stops, list) or len(stops) > MAX_STOP:
                raise Unexpressible(f"stop_sequences: at most {MAX_STOP} can be forwarded", "stop_sequences")
            chat["stop"] = stops
        user = body.get("metadata", {}).get("user_id") if isinstance(body.get("metadata"), dict) else None
        if isinstance(user, str):
            chat["user"] = user
        return chat

    def from_chat(self, completion: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
        message, finish = choice_of(completion)
        content: list[dict[str, Any]] = []
        if message.get("content"):
            content.append({"type": "text", "text": message["content"]})
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            content.append({"type": "tool_use", "id": call.get("id") or new_id("toolu_"),
                            "name": function.get("name"), "input": arguments_object(function.get("arguments"))})
        prompt, produced = usage_of(completion)
        return {"id": new_id("msg_"), "type": "message", "role": "assistant", "model": completion.get("model"),
                "content": content, "stop_reason": STOP_REASONS.get(finish or "stop", "end_turn"),
                "stop_sequence": None,
                "usage": {"input_tokens": prompt, "output_tokens": produced, "cache_creation_input_tokens": 0,
                          "cache_read_input_tokens": 0}}

    def stream(self, reply: dict[str, Any], request: dict[str, Any]) -> Iterator[str]:
        def event(kind: str, **fields: Any) -> str:
            return sse({"type": kind, **fields}, kind)

        usage = reply["usage"]
        opening = {**reply, "content": [], "stop_reason": None, "stop_sequence": None,
                   "usage": {**usage, "output_tokens": 0}}
        yield event("message_start", message=opening)
        yield event("ping")
        for index, block in enumerate(reply["content"]):
            if block["type"] == "text":
                yield event("content_block_start", index=index, content_block={"type": "text", "text": ""})
                for piece in chunks(block["text"]):
                    yield event("content_block_delta", index=index, delta={"type": "text_delta", "text": piece})
            else:
                yield event("content_block_start", index=index, content_block={**block, "input": {}})
                for piece in chunks(json.dumps(block["input"])):
                    yield event("content_block_delta", index=index,
                                delta={"type": "input_json_delta", "partial_json": piece})
            yield event("content_block_stop", index=index)
        yield event("message_delta", delta={"stop_reason": reply["stop_reason"], "stop_sequence": None},
                    usage={"output_tokens": usage["output_tokens"]})
        yield event("message_stop")

    def error(self, failure: Failure, message: str, code: str | None = None, param: str | None = None
              ) -> ErrorShape:
        status, kind = ERRORS[failure]
        return ErrorShape(status, {"type": "error", "error": {"type": kind, "message": message}})
