"""The per-trial model proxy: an OpenAI-compatible endpoint on a unix socket, in front of the gateway.

A command harness's agent reaches the model only through it (harnesses/relay.py carries its loopback
connection out of the sandbox). For every request it checks the per-trial token (worth nothing outside
this trial), the body, and the model the variant pins; counts the call against the trial's limits
(LimitGuard); sends it through the process's GatewaySession (the same quota, retries, 429 handling and
accounting as the reference loop, with the trial's seed added when the agent sets none); and writes
request and response to the trajectory. Past a limit, the agent gets an error and the relay is told to
stop it. The real API key stays in the gateway: nothing here sees it.
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
from pathlib import Path

import anyio
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from uvicorn.protocols.http.h11_impl import H11Protocol

from nightshift.errors import GatewayError, LimitReached, RequestRejected
from nightshift.gateway import GatewaySession
from nightshift.harnesses.limits import LimitGuard
from nightshift.trajectory import TrajectoryLog


def _error(status: int, message: str, kind: str, code: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "param": None, "code": code}}, status)


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
        app = Starlette(routes=[Route("/v1/chat/completions", self._chat, methods=["POST"]),
                                Route("/chat/completions", self._chat, methods=["POST"]),
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

    def _refuse(self, status: int, message: str, kind: str, code: str | None = None, **fields) -> JSONResponse:
        self.refused += 1
        self._write("proxy_refused", status=status, message=message, **fields)
        return _error(status, message, kind, code)

    async def _models(self, request: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": self.model, "object": "model", "owned_by": "proxy"}]})

    async def _stop_route(self, request: Request) -> JSONResponse:
        while not self.stop.is_set() and not self._server.should_exit:
            await asyncio.sleep(0.05)
        return JSONResponse({"stop": True})

    def _authorised(self, request: Request) -> bool:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and token.strip() == self.token

    async def _chat(self, request: Request) -> JSONResponse:
        if not self._authorised(request):
            return self._refuse(401, "invalid API key for this trial's model proxy", "invalid_request_error",
                                "invalid_api_key")
        raw = await request.body()
        try:
            body = json.loads(raw)
        except ValueError:
            return self._refuse(400, "the request body is not JSON", "invalid_request_error", body=raw[:2000])
        problem = self._check(body)
        if problem:
            return self._refuse(400, problem, "invalid_request_error", body=body)
        body.setdefault("seed", self.seed)
        try:
            ticket = self.guard.before_call()
        except LimitReached as limit:
            self.stop.set()
            return self._refuse(403, f"nightshift: {limit.reason}; the trial is over", "limit_reached", limit.status)
        step = self.guard.calls
        started = time.monotonic()
        try:
            completion = await anyio.to_thread.run_sync(self.session.complete, body)
        except RequestRejected as exc:  # the agent's request (invalid, or too large for the quota): its answer
            self._write("model_rejected", step=step, request=body, error=str(exc))
            return _error(400, f"the model endpoint rejected the request: {exc}", "invalid_request_error")
        except GatewayError as exc:
            self.infra_error = str(exc)
            self.stop.set()
            self._write("infra_error", step=step, request=body, error=str(exc))
            return _error(502, "nightshift: the model endpoint failed; the trial ends as infra_error", "server_error")
        finally:
            self.guard.end_call(ticket)
        self._write("model", step=step, message=_message_of(completion), usage=_usage_of(completion),
                    served_by=completion.get("model"), request=body, response=completion,
                    seconds=round(time.monotonic() - started, 4))
        try:
            self.guard.after_call()
        except LimitReached:
            self.stop.set()  # this reply was paid for and is delivered; the agent is stopped after it
        return JSONResponse(completion)

    def _check(self, body: object) -> str | None:
        """Why a body cannot be forwarded (the agent's own mistake, answered as a 400), or None."""
        if not isinstance(body, dict):
            return "the request body must be a JSON object"
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages or not all(
                isinstance(m, dict) and isinstance(m.get("role"), str) for m in messages):
            return "'messages' must be a non-empty array of objects with a 'role'"
        if body.get("stream"):
            return "stream=true is not supported by the nightshift model proxy; send stream=false"
        if body.get("model") != self.model:
            return f"this trial may use only the model {self.model!r}, not {body.get('model')!r}"
        return None
