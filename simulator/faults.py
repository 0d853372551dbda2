"""Injected faults: which one (if any) an admitted request meets, and the broken reply that plays it.

Status faults (500, 503) and ``malformed`` (a 200 whose body is not JSON) are ordinary responses.
``timeout``, ``reset`` and ``truncated`` break the connection itself, which ASGI cannot express: they find
uvicorn's transport for the current request (the ``self`` of the task running ``run_asgi``) and close or
abort it. Must not decide rate limits or play the agent.
"""

from __future__ import annotations

import asyncio
import random
import socket
import struct
from typing import cast

from starlette.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from nightshift.protocols import Failure, WireProtocol
from nightshift.simulator.config import FaultKind

SERVER_ERROR = {"500": "The server had an error while processing your request. Sorry about that!",
                "503": "The engine is currently overloaded, please try again later."}


def pick_fault(rng: random.Random, table: dict[FaultKind, float]) -> FaultKind | None:
    """One draw: the fault kind this request meets, or None (rates from ``SimulatorConfig.fault_table``)."""
    if not table:
        return None
    draw, edge = rng.random(), 0.0
    for kind in sorted(table):
        edge += table[kind]
        if draw < edge:
            return kind
    return None


def current_transport() -> asyncio.Transport | None:
    """uvicorn's transport of the request being served (its protocol cycle runs this task's coroutine)."""
    task = asyncio.current_task()
    frame = getattr(task.get_coro(), "cr_frame", None) if task else None
    cycle = frame.f_locals.get("self") if frame is not None else None
    transport = getattr(cycle, "transport", None)
    # a stream transport (abort, close); checked only as a transport, as uvloop's may not subclass asyncio's
    return cast(asyncio.Transport, transport) if isinstance(transport, asyncio.BaseTransport) else None


async def drop_connection(reset: bool) -> None:
    """Close this request's connection: an RST (``reset``) or after flushing what was written (FIN)."""
    transport = current_transport()
    if transport is None:
        raise RuntimeError("cannot find the connection of this request to break it")
    if reset:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    else:
        transport.close()
    await asyncio.sleep(0.05)  # let uvicorn see the connection lost, so it does not answer 500 instead


class BrokenResponse(Response):
    """A reply that breaks the connection: none at all (``reset``), or half a body then close."""

    def __init__(self, kind: FaultKind, body: bytes = b"", media_type: str = "application/json") -> None:
        super().__init__(body, media_type=media_type)
        self.kind = kind

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.kind == "reset":
            await drop_connection(reset=True)
            return
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        await send({"type": "http.response.body", "body": self.body[: len(self.body) // 2], "more_body": True})
        await drop_connection(reset=False)


async def fault_response(kind: FaultKind, protocol: WireProtocol, text: str, headers: dict[str, str],
                         hang_s: float, media_type: str = "application/json") -> Response:
    """The reply that plays ``kind`` for a request whose healthy answer would be ``text`` (a JSON body or a
    stream's events), in ``protocol``'s error shape (an Anthropic 503 is its 529 "overloaded")."""
    if kind in SERVER_ERROR:
        shape = protocol.error(Failure.server if kind == "500" else Failure.overloaded, SERVER_ERROR[kind])
        return JSONResponse(shape.body, status_code=shape.status, headers=headers)
    if kind == "timeout":
        await asyncio.sleep(hang_s)
        return BrokenResponse("reset")
    if kind == "reset":
        return BrokenResponse("reset")
    data = text.encode()
    if kind == "truncated":
        response = BrokenResponse("truncated", data, media_type)
        response.headers.update(headers)
        return response
    # malformed: a complete 200 whose body (or stream) stops in the middle of a JSON document
    return Response(data[: len(data) // 2], media_type=media_type, headers=headers)
