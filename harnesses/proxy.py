"""The per-trial model proxy: the agent's model endpoint on a unix socket, in front of the gateway.

A command harness's agent reaches the model only through it (harnesses/relay.py carries its loopback
connection out of the sandbox). It speaks three wire protocols to the agent: Chat Completions
(``/v1/chat/completions``), OpenAI Responses (``/v1/responses``) and Anthropic Messages (``/v1/messages``,
``/v1/messages/count_tokens``). Each request is translated to one chat body (protocols/) and takes
the one path after that: the per-trial token (worth nothing outside this trial, as a bearer token or
``x-api-key``), the model the variant pins, the trial's limits (LimitGuard), the process's GatewaySession
(the same quota, retries, 429 handling and accounting as the reference loop, with the trial's seed added
when the agent sets none), and the trajectory. The reply is translated back, as JSON or as the protocol's
stream. Refusals, limits and failures are answered in the agent's protocol's own error shape; past a limit
the relay is also told to stop the agent. The real API key stays in the gateway: nothing here sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import struct
import threading
import time
from collections import OrderedDict
from pathlib import Path

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from nightshift.errors import GatewayError, LimitReached, RequestRejected
from nightshift.gateway import GatewaySession
from nightshift.gateway.usage import prompt_chars
from nightshift.harnesses.limits import LimitGuard
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
from nightshift.trajectory import TrajectoryLog

KEPT_RESPONSES = 256  # Responses conversations a trial may continue by previous_response_id


def _error(protocol: WireProtocol, failure: Failure, message: str, code: str | None = None,
           param: str | None = None) -> JSONResponse:
    shape = protocol.error(failure, message, code, param)
    return JSONResponse(shape.body, shape.status)


def _message_of(completion: dict) -> dict:
    """The assistant message of a completion, as the trajectory's ``model`` event holds it (the viewer draws it)."""
    choices = completion.get("choices") or [{}]
    message = choices[0].get("message") if isinstance(choices[0], dict) else None
    return message if isinstance(message, dict) else {"role": "assistant", "content": None}


def _usage_of(completion: dict) -> dict | None:
    usage = completion.get("usage")
    if not isinstance(usage, dict):
        return None
    return {"input_tokens": usage.get("prompt_tokens", 0), "output_tokens": usage.get("completion_tokens", 0)}


def _peer_checked(proxy: ModelProxy) -> type[H11Protocol]:
    """uvicorn's HTTP protocol, closing any connection whose peer (SO_PEERCRED) is not the sandbox's uid."""

    class PeerChecked(H11Protocol):
        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")) if sock else b""
            uid = struct.unpack("3i", creds)[1] if creds else None
            if uid != proxy.uid:
                proxy.refused += 1
                proxy._write("proxy_refused", status=0, message=f"connection from uid {uid}, not the sandbox's")
                transport.close()

    return PeerChecked


class ModelProxy:
    def __init__(self, socket_path: Path, uid: int, session: GatewaySession, guard: LimitGuard, model: str,
                 seed: int, token: str, log: TrajectoryLog):
        self.socket_path, self.uid = socket_path, uid
        self.session, self.guard, self.model, self.seed, self.token, self.log = session, guard, model, seed, token, log
        self.stop = threading.Event()
        self.infra_error: str | None = None
        self.refused = 0  # requests answered with an error before reaching the gateway
        self._log_lock = threading.Lock()
        self._conversations: OrderedDict[str, list[dict]] = OrderedDict()  # Responses id -> its chat messages
        routes = [Route(path, self._route(protocol), methods=["POST"])
                  for protocol, paths in ((CHAT, ("/v1/chat/completions", "/chat/completions")),
                                          (RESPONSES, ("/v1/responses", "/responses")),
                                          (MESSAGES, ("/v1/messages", "/messages"))) for path in paths]
        app = Starlette(routes=[*routes, Route("/v1/messages/count_tokens", self._count_tokens, methods=["POST"]),
                                Route("/v1/models", self._models, methods=["GET"]),
                                Route("/nightshift/stop", self._stop_route, methods=["GET"])])
        config = uvicorn.Config(app, uds=str(socket_path), log_level="error", access_log=False, lifespan="off",
                                timeout_keep_alive=30, http=_peer_checked(self))
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name=f"proxy-{socket_path.parent.name}",
                                        daemon=True)

    def __enter__(self) -> ModelProxy:
        self._thread.start()
        deadline = time.monotonic() + 15
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"model proxy on {self.socket_path} did not start")
            time.sleep(0.005)
        # only this sandbox's uid may connect (docs/SANDBOX.md); the peer is checked again on every accept
        os.chown(self.socket_path, self.uid, self.uid)
        self.socket_path.chmod(0o600)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self._server.should_exit = True
        self._thread.join(10)
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()

    def _write(self, event: str, **fields) -> None:
        with self._log_lock:
            self.log.write(event, **fields)

    def _refuse(self, protocol: WireProtocol, failure: Failure, message: str, code: str | None = None,
                param: str | None = None, **fields) -> JSONResponse:
        self.refused += 1
        shape = protocol.error(failure, message, code, param)
        self._write("proxy_refused", status=shape.status, message=message, protocol=protocol.name, **fields)
        return JSONResponse(shape.body, shape.status)

    async def _models(self, request: Request) -> JSONResponse:
        listed = {"id": self.model, "object": "model", "owned_by": "proxy", "type": "model",
                  "display_name": self.model, "created_at": "2026-01-01T00:00:00Z"}
        return JSONResponse({"object": "list", "data": [listed], "has_more": False, "first_id": self.model,
                             "last_id": self.model})

    async def _stop_route(self, request: Request) -> JSONResponse:
        while not self.stop.is_set() and not self._server.should_exit:
            await asyncio.sleep(0.05)
        return JSONResponse({"stop": True})

    def _authorised(self, request: Request) -> bool:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        bearer = scheme.lower() == "bearer" and token.strip() == self.token
        return bearer or request.headers.get("x-api-key", "").strip() == self.token  # Anthropic's SDKs send this

    async def _read(self, request: Request, protocol: WireProtocol, counting: bool = False
                    ) -> tuple[dict | None, dict | None, Response | None]:
        """The agent's body and its chat translation, or the error that answers it (``counting``: a token count,
        which needs no max_tokens)."""
        if not self._authorised(request):
            return None, None, self._refuse(protocol, Failure.authentication, "invalid API key for this trial's "
                                            "model proxy", "invalid_api_key")
        raw = await request.body()
        try:
            body = json.loads(raw)
        except ValueError:
            return None, None, self._refuse(protocol, Failure.invalid_request, "the request body is not JSON",
                                            body=raw[:2000].decode(errors="replace"))
        if not isinstance(body, dict):
            return None, None, self._refuse(protocol, Failure.invalid_request, "the request body must be a JSON "
                                            "object", body=body)
        history = None
        if protocol is RESPONSES and body.get("previous_response_id"):
            history = self._conversations.get(str(body["previous_response_id"]))
            if history is None:
                return body, None, self._refuse(protocol, Failure.invalid_request, f"previous_response_id "
                                                f"{body['previous_response_id']!r} was not answered by this trial's "
                                                f"proxy", "previous_response_not_found", "previous_response_id",
                                                body=body)
        try:
            chat = protocol.to_chat({"max_tokens": 1, **body} if counting else body, history)
        except ProviderToolRefused as refused:
            return body, None, self._refuse(protocol, Failure.invalid_request, str(refused), "provider_tool_refused",
                                            refused.param, body=body, provider_tools=refused.tools)
        except TranslationRefused as refused:
            return body, None, self._refuse(protocol, Failure.invalid_request, str(refused), "unsupported_feature",
                                            refused.param, body=body)
        except (TypeError, AttributeError, KeyError) as exc:  # a body of the wrong shape somewhere deep in it
            return body, None, self._refuse(protocol, Failure.invalid_request, f"the request does not fit the "
                                            f"{protocol.name} protocol ({type(exc).__name__}: {exc})", body=body)
        problem = self._check(chat)
        if problem:
            return body, None, self._refuse(protocol, Failure.invalid_request, problem, body=body)
        return body, chat, None

    def _route(self, protocol: WireProtocol):
        async def serve(request: Request) -> Response:
            return await self._serve(request, protocol)
        return serve

    async def _serve(self, request: Request, protocol: WireProtocol) -> Response:
        body, chat, refusal = await self._read(request, protocol)
        if refusal is not None or body is None or chat is None:
            assert refusal is not None
            return refusal
        chat.setdefault("seed", self.seed)
        try:
            ticket = self.guard.before_call()
        except LimitReached as limit:
            self.stop.set()
            return self._refuse(protocol, Failure.limit_reached, f"nightshift: {limit.reason}; the trial is over",
                                limit.status)
        step = self.guard.calls
        started = time.monotonic()
        wire = {} if protocol is CHAT else {"protocol": protocol.name, "wire_request": body}
        try:
            completion = await anyio.to_thread.run_sync(self.session.complete, chat)
        except RequestRejected as exc:  # the agent's request (invalid, or too large for the quota): its answer
            self._write("model_rejected", step=step, request=chat, error=str(exc), **wire)
            return _error(protocol, Failure.invalid_request, f"the model endpoint rejected the request: {exc}")
        except GatewayError as exc:
            self.infra_error = str(exc)
            self.stop.set()
            self._write("infra_error", step=step, request=chat, error=str(exc), **wire)
            return _error(protocol, Failure.bad_gateway, "nightshift: the model endpoint failed; the trial ends as "
                          "infra_error")
        finally:
            self.guard.end_call(ticket)
        self._write("model", step=step, message=_message_of(completion), usage=_usage_of(completion),
                    served_by=completion.get("model"), request=chat, response=completion,
                    seconds=round(time.monotonic() - started, 4), **wire)
        try:
            self.guard.after_call()
        except LimitReached:
            self.stop.set()  # this reply was paid for and is delivered; the agent is stopped after it
        reply = protocol.from_chat(completion, body)
        if protocol is RESPONSES:
            self._keep(reply["id"], RESPONSES.history(body, chat, completion))
        if body.get("stream") is True:
            return StreamingResponse(replay(protocol.stream(reply, body)), media_type="text/event-stream",
                                     headers={"cache-control": "no-cache"})
        return JSONResponse(reply)

    def _keep(self, response_id: str, messages: list[dict]) -> None:
        self._conversations[response_id] = messages
        while len(self._conversations) > KEPT_RESPONSES:
            self._conversations.popitem(last=False)

    async def _count_tokens(self, request: Request) -> Response:
        """Anthropic's token count, as the gateway estimates a prompt; not a model call, so not a step."""
        body, chat, refusal = await self._read(request, MESSAGES, counting=True)
        if refusal is not None or chat is None:
            assert refusal is not None
            return refusal
        chars = prompt_chars(chat["messages"]) + len(json.dumps(chat.get("tools") or []))
        return JSONResponse({"input_tokens": self.session.gateway.estimator.prompt_tokens(chars)})

    def _check(self, body: dict) -> str | None:
        """Why a translated body cannot be forwarded (the agent's own mistake, answered as a 400), or None."""
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages or not all(
                isinstance(m, dict) and isinstance(m.get("role"), str) for m in messages):
            return "'messages' must be a non-empty array of objects with a 'role'"
        if body.get("model") != self.model:
            return f"this trial may use only the model {self.model!r}, not {body.get('model')!r}"
        return None
