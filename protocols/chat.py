"""OpenAI Chat Completions, the gateway's own shape: passed through, and streamed as ``chat.completion.chunk``s.

The endpoint is always asked without streaming (the gateway must read ``usage`` and the quota headers of one
whole reply); an agent that asked for a stream gets the finished completion replayed as chunks, ending with a
usage chunk when ``stream_options.include_usage`` is set, and ``data: [DONE]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from nightshift.protocols.base import WireProtocol, choice_of, chunks, sse

STREAM_ONLY = ("stream", "stream_options")


class ChatProtocol(WireProtocol):
    name = "chat"

    def to_chat(self, body: dict[str, Any], history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return {k: v for k, v in body.items() if k not in STREAM_ONLY}

    def from_chat(self, completion: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
        return completion

    def stream(self, reply: dict[str, Any], request: dict[str, Any]) -> Iterator[str]:
        message, finish = choice_of(reply)
        head = {k: reply.get(k) for k in ("id", "created", "model", "system_fingerprint")}
        head["object"] = "chat.completion.chunk"

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
            return sse({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason,
                                             "logprobs": None}]})

        yield chunk({"role": "assistant", "content": ""})
        for piece in chunks(message.get("content") or ""):
            yield chunk({"content": piece})
        for index, call in enumerate(message.get("tool_calls") or []):
            function = call.get("function") or {}
            yield chunk({"tool_calls": [{"index": index, "id": call.get("id"), "type": "function",
                                         "function": {"name": function.get("name"), "arguments": ""}}]})
            for piece in chunks(function.get("arguments") or ""):
                yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        yield chunk({}, finish or "stop")
        options = request.get("stream_options")
        if isinstance(options, dict) and options.get("include_usage"):
            yield sse({**head, "choices": [], "usage": reply.get("usage")})
        yield sse("[DONE]")
