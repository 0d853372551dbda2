"""Wire protocols: how an agent talks to a model (Chat Completions, Responses, Anthropic Messages).

Each is a translation to and from the Chat Completions shape the gateway sends, so quota, limits,
accounting and the trajectory stay one path whatever protocol the agent speaks (harnesses/proxy.py) or the
simulator is asked in (simulator/server.py). Translating must not send anything: no I/O here.
"""

from nightshift.protocols.base import (
    ErrorShape,
    Failure,
    ProviderToolRefused,
    TranslationRefused,
    Unexpressible,
    WireProtocol,
    replay,
)
from nightshift.protocols.chat import ChatProtocol
from nightshift.protocols.messages import MessagesProtocol
from nightshift.protocols.responses import ResponsesProtocol

CHAT, RESPONSES, MESSAGES = ChatProtocol(), ResponsesProtocol(), MessagesProtocol()
PROTOCOLS: dict[str, WireProtocol] = {p.name: p for p in (CHAT, RESPONSES, MESSAGES)}

__all__ = ["CHAT", "MESSAGES", "PROTOCOLS", "RESPONSES", "ChatProtocol", "ErrorShape", "Failure", "MessagesProtocol",
           "ProviderToolRefused", "ResponsesProtocol", "TranslationRefused", "Unexpressible", "WireProtocol", "replay"]
