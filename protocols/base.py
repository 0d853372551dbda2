"""What every wire protocol shares: the refusals a translation raises, error kinds, and SSE framing.

A translation turns an agent's request into a Chat Completions body (the shape the gateway sends) and a
completion back into the agent's protocol. When a request asks for something the chat path cannot do
faithfully it raises ``Unexpressible``; when it asks for a tool the provider would run on its own servers
(web search, code interpreter, remote MCP) it raises ``ProviderToolRefused``: such a tool would reach the
network the sandbox must not reach. Both are answered 400 in the agent's own protocol.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

TEXT_CHUNK = 24  # characters per streamed text delta: several deltas per reply exercise a client's accumulator


class Failure(StrEnum):
    """What went wrong, independent of protocol; each protocol maps it to its status and error type."""

    invalid_request = "invalid_request"
    authentication = "authentication"
    permission = "permission"
    not_found = "not_found"
    too_large = "too_large"
    rate_limit = "rate_limit"
    limit_reached = "limit_reached"  # a trial limit (steps, tokens, cost, time): the trial is over
    server = "server"
    overloaded = "overloaded"
    bad_gateway = "bad_gateway"  # the endpoint behind the proxy failed


class TranslationRefused(ValueError):
    """A request the proxy will not forward; ``param`` names the field at fault."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


class Unexpressible(TranslationRefused):
    """The request uses a feature the night's endpoint protocol cannot carry."""


class ProviderToolRefused(TranslationRefused):
    """The request asks for a tool the provider runs itself; ``tools`` names them (for the trajectory)."""

    def __init__(self, tools: list[str], param: str):
        names = ", ".join(sorted(set(tools)))
        super().__init__(f"provider-side tools are refused in a nightshift sandbox ({names}): the provider would "
                         f"run them on its own network, which the sandbox's no-network rule forbids; offer them "
                         f"as your own function tools instead", param)
        self.tools = sorted(set(tools))


@dataclass(frozen=True)
class ErrorShape:
    status: int
    body: dict[str, Any]


def new_id(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:24]}"


def sse(data: dict[str, Any] | str, event: str | None = None) -> str:
    """One server-sent event; ``data`` as compact JSON (or a literal such as ``[DONE]``)."""
    payload = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    return (f"event: {event}\n" if event else "") + f"data: {payload}\n\n"


def chunks(text: str, size: int = TEXT_CHUNK) -> Iterator[str]:
    for start in range(0, len(text), size):
        yield text[start:start + size]


def choice_of(completion: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The first choice's message and finish reason of a chat completion."""
    choices = completion.get("choices") or [{}]
    first: dict[str, Any] = choices[0] if isinstance(choices[0], dict) else {}
    message = first.get("message")
    return (message if isinstance(message, dict) else {}), first.get("finish_reason")


def usage_of(completion: dict[str, Any]) -> tuple[int, int]:
    usage = completion.get("usage")
    if not isinstance(usage, dict):
        return 0, 0
    return int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)


def text_of(content: object, field: str, kinds: tuple[str, ...] = ("text",)) -> str:
    """The text of a string or a list of text parts; any other part is refused as unexpressible."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise Unexpressible(f"'{field}' must be a string or a list of content parts", field)
    texts = []
    for index, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind not in kinds or not isinstance(part.get("text"), str):
            raise Unexpressible(f"'{field}[{index}]' is a {kind!r} part; only text parts ({', '.join(kinds)}) can "
                                f"be forwarded here", f"{field}[{index}]")
        texts.append(part["text"])
    return "\n".join(texts)


def arguments_object(arguments: object) -> dict[str, Any]:
    """A tool call's JSON arguments as an object (what Anthropic's ``input`` must be); {} when not an object."""
    if isinstance(arguments, dict):
        return arguments
    try:
        value = json.loads(arguments) if isinstance(arguments, str) and arguments.strip() else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class WireProtocol:
    """One agent-facing protocol: its request translated to chat, a chat completion translated back."""

    name = ""
    openai_errors = True  # {"error": {...}}; Anthropic's protocol overrides error()

    def to_chat(self, body: dict[str, Any], history: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The Chat Completions body for ``body`` (no ``stream``); ``history`` continues an earlier exchange."""
        raise NotImplementedError

    def from_chat(self, completion: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
        """The reply to ``request`` (this protocol's body) made from the chat ``completion``."""
        raise NotImplementedError

    def stream(self, reply: dict[str, Any], request: dict[str, Any]) -> Iterator[str]:
        """``reply`` (from ``from_chat``) as this protocol's server-sent events."""
        raise NotImplementedError

    def error(self, failure: Failure, message: str, code: str | None = None, param: str | None = None
              ) -> ErrorShape:
        status, kind = OPENAI_ERRORS[failure]
        return ErrorShape(status, {"error": {"message": message, "type": kind, "param": param, "code": code}})


OPENAI_ERRORS: dict[Failure, tuple[int, str]] = {
    Failure.invalid_request: (400, "invalid_request_error"),
    Failure.authentication: (401, "invalid_request_error"),
    Failure.permission: (403, "permission_error"),
    Failure.not_found: (404, "invalid_request_error"),
    Failure.too_large: (413, "invalid_request_error"),
    Failure.rate_limit: (429, "requests"),
    Failure.limit_reached: (403, "limit_reached"),
    Failure.server: (500, "server_error"),
    Failure.overloaded: (503, "server_error"),
    Failure.bad_gateway: (502, "server_error"),
}


async def replay(events: Iterator[str]) -> AsyncIterator[str]:
    """A finished reply's events for a streaming response, without a thread hop per event (which a plain
    iterator costs in Starlette)."""
    for event in list(events):
        yield event
