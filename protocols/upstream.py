"""The night's endpoint in its own protocol (``model.protocol``): a chat request sent as a Responses or Messages
request, and the endpoint's reply read back as a chat completion.

The gateway keeps its one chat-shaped path (estimate, quota, retries, accounting); only the body on the wire
and the reply's shape change here. Neither Responses nor Messages takes a ``seed``, so it is not sent (the
endpoint samples as it will); chat features with no counterpart (``n`` > 1, ``logit_bias``, ``logprobs``,
``response_format`` towards Anthropic) are refused before anything is sent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nightshift.protocols.base import Unexpressible, arguments_object, new_id

ANTHROPIC_VERSION = "2023-06-01"
NO_COUNTERPART = ("logit_bias", "logprobs", "top_logprobs", "presence_penalty", "frequency_penalty")
DEFAULT_MAX_TOKENS = 1024  # Messages requires max_tokens; the gateway's estimate assumes the same
_DATA_URL = re.compile(r"^data:(?P<media>[\w/+.-]+);base64,(?P<data>.*)$", re.DOTALL)


def _text(content: object) -> str:
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return content if isinstance(content, str) else ""


def _refuse_unmapped(body: dict[str, Any], protocol: str) -> None:
    for field in NO_COUNTERPART:
        if body.get(field) not in (None, False):
            raise Unexpressible(f"'{field}' has no counterpart in the {protocol} protocol of this night's endpoint",
                                field)
    if (body.get("n") or 1) > 1:
        raise Unexpressible(f"n > 1 has no counterpart in the {protocol} protocol of this night's endpoint", "n")


def _split_system(messages: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    system = [_text(m.get("content")) for m in messages if m.get("role") in ("system", "developer")]
    return "\n\n".join(s for s in system if s), [m for m in messages if m.get("role") not in ("system", "developer")]


def chat_to_responses(body: dict[str, Any]) -> dict[str, Any]:
    _refuse_unmapped(body, "Responses")
    instructions, messages = _split_system(body["messages"])
    items: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "tool":
            items.append({"type": "function_call_output", "call_id": message.get("tool_call_id"),
                          "output": _text(message.get("content"))})
            continue
        if message.get("content"):
            kind = "output_text" if role == "assistant" else "input_text"
            items.append({"type": "message", "role": role,
                          "content": [{"type": kind, "text": _text(message["content"])}]})
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            items.append({"type": "function_call", "call_id": call.get("id"), "name": function.get("name"),
                          "arguments": function.get("arguments") or "{}"})
    wire: dict[str, Any] = {"model": body["model"], "input": items, "store": False}
    if instructions:
        wire["instructions"] = instructions
    if body.get("tools"):
        wire["tools"] = [{"type": "function", "name": t["function"]["name"],
                          "description": t["function"].get("description"),
                          "parameters": t["function"].get("parameters"), "strict": t["function"].get("strict")}
                         for t in body["tools"]]
    choice = body.get("tool_choice")
    if isinstance(choice, dict):
        choice = {"type": "function", "name": choice.get("function", {}).get("name")}
    if choice is not None:
        wire["tool_choice"] = choice
    limit = body.get("max_completion_tokens") or body.get("max_tokens")
    if limit:
        wire["max_output_tokens"] = limit
    for field in ("temperature", "top_p", "parallel_tool_calls", "user"):
        if body.get(field) is not None:
            wire[field] = body[field]
    fmt = body.get("response_format")
    if isinstance(fmt, dict) and fmt.get("type") == "json_schema":
        wire["text"] = {"format": {"type": "json_schema", **fmt.get("json_schema", {})}}
    elif isinstance(fmt, dict) and fmt.get("type") == "json_object":
        wire["text"] = {"format": {"type": "json_object"}}
    return wire


def responses_to_chat(reply: dict[str, Any]) -> dict[str, Any]:
    texts, calls = [], []
    for item in reply.get("output") or []:
        if item.get("type") == "message":
            texts += [p.get("text", "") for p in item.get("content") or [] if p.get("type") == "output_text"]
        elif item.get("type") == "function_call":
            calls.append({"id": item.get("call_id"), "type": "function",
                          "function": {"name": item.get("name"), "arguments": item.get("arguments") or "{}"}})
    finish = "length" if reply.get("status") == "incomplete" else ("tool_calls" if calls else "stop")
    usage = reply.get("usage") or {}
    return _completion(reply, "".join(texts) or None, calls, finish, usage.get("input_tokens", 0),
                       usage.get("output_tokens", 0))


def _anthropic_part(part: dict[str, Any]) -> dict[str, Any]:
    if part.get("type") == "image_url":
        url = str((part.get("image_url") or {}).get("url", ""))
        match = _DATA_URL.match(url)
        source = ({"type": "base64", "media_type": match["media"], "data": match["data"]} if match
                  else {"type": "url", "url": url})
        return {"type": "image", "source": source}
    return {"type": "text", "text": str(part.get("text", ""))}


def chat_to_messages(body: dict[str, Any]) -> dict[str, Any]:
    _refuse_unmapped(body, "Anthropic Messages")
    if body.get("response_format"):
        raise Unexpressible("'response_format' has no counterpart in the Anthropic Messages protocol",
                            "response_format")
    system, messages = _split_system(body["messages"])
    turns: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if turns and turns[-1]["role"] == role:  # Messages alternates roles: tool results join the user turn
            turns[-1]["content"] += blocks
        else:
            turns.append({"role": role, "content": blocks})

    for message in messages:
        role, content = message.get("role"), message.get("content")
        if role == "tool":
            result = {"type": "tool_result", "tool_use_id": message.get("tool_call_id"), "content": _text(content)}
            add("user", [result])
        elif role == "assistant":
            blocks: list[dict[str, Any]] = [{"type": "text", "text": _text(content)}] if _text(content) else []
            blocks += [{"type": "tool_use", "id": c.get("id"), "name": (c.get("function") or {}).get("name"),
                        "input": arguments_object((c.get("function") or {}).get("arguments"))}
                       for c in message.get("tool_calls") or []]
            add("assistant", blocks)
        else:
            parts = content if isinstance(content, list) else [{"type": "text", "text": _text(content)}]
            add("user", [_anthropic_part(p) for p in parts if isinstance(p, dict)])
    wire: dict[str, Any] = {"model": body["model"], "messages": turns,
                            "max_tokens": body.get("max_completion_tokens") or body.get("max_tokens")
                            or DEFAULT_MAX_TOKENS}
    if system:
        wire["system"] = system
    if body.get("tools"):
        wire["tools"] = [{"name": t["function"]["name"], "description": t["function"].get("description", ""),
                          "input_schema": t["function"].get("parameters") or {"type": "object"}}
                         for t in body["tools"]]
    choice = body.get("tool_choice")
    mapped = ({"auto": {"type": "auto"}, "required": {"type": "any"}, "none": {"type": "none"}}.get(choice)
              if isinstance(choice, str) else
              {"type": "tool", "name": choice.get("function", {}).get("name")} if isinstance(choice, dict) else None)
    if body.get("parallel_tool_calls") is False and body.get("tools"):
        mapped = {**(mapped or {"type": "auto"}), "disable_parallel_tool_use": True}
    if mapped:
        wire["tool_choice"] = mapped
    stop = body.get("stop")
    if stop:
        wire["stop_sequences"] = [stop] if isinstance(stop, str) else list(stop)
    for field in ("temperature", "top_p"):
        if body.get(field) is not None:
            wire[field] = body[field]
    return wire


FINISH = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "tool_calls", "max_tokens": "length",
          "refusal": "content_filter", "pause_turn": "stop"}


def messages_to_chat(reply: dict[str, Any]) -> dict[str, Any]:
    blocks = reply.get("content") or []
    text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
    calls = [{"id": b.get("id"), "type": "function",
              "function": {"name": b.get("name"), "arguments": json.dumps(b.get("input") or {})}}
             for b in blocks if b.get("type") == "tool_use"]
    usage = reply.get("usage") or {}
    prompt = sum(int(usage.get(k) or 0) for k in ("input_tokens", "cache_creation_input_tokens",
                                                  "cache_read_input_tokens"))
    return _completion(reply, text or None, calls, FINISH.get(str(reply.get("stop_reason")), "stop"), prompt,
                       int(usage.get("output_tokens") or 0))


def _completion(reply: dict[str, Any], text: str | None, calls: list[dict[str, Any]], finish: str, prompt: int,
                produced: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = calls
    return {"id": str(reply.get("id") or new_id("chatcmpl-")), "object": "chat.completion", "created": 0,
            "model": str(reply.get("model") or ""),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": produced, "total_tokens": prompt + produced}}


@dataclass(frozen=True)
class Upstream:
    """How the gateway reaches an endpoint that speaks ``protocol``: the path, the body, the reply, the headers."""

    path: str
    to_wire: Callable[[dict[str, Any]], dict[str, Any]]
    to_chat: Callable[[dict[str, Any]], dict[str, Any]]
    headers: dict[str, str]


UPSTREAMS: dict[str, Upstream] = {
    "responses": Upstream("/responses", chat_to_responses, responses_to_chat, {}),
    "anthropic": Upstream("/messages", chat_to_messages, messages_to_chat, {"anthropic-version": ANTHROPIC_VERSION}),
}
