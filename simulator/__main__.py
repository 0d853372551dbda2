"""Command line: ``python -m simulator --port 0 --suite DIR [--ready-file FILE] ...``.

Binds the socket first (port 0 picks a free one), starts uvicorn on it, and once the server is
accepting requests prints the base URL (``http://HOST:PORT/v1``) and writes it atomically to
``--ready-file``. SIGTERM or SIGINT stop it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys
from pathlib import Path

import uvicorn

from simulator.config import SimulatorConfig
from simulator.server import create_app
from suites.loader import SuiteError


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    defaults = SimulatorConfig()
    parser = argparse.ArgumentParser(prog="python -m simulator",
                                     description="OpenAI-compatible stand-in model for nightshift.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--suite", action="append", type=Path, default=[], help="suite folder (repeatable)")
    parser.add_argument("--log", type=Path, default=None, help="request log (JSON lines)")
    parser.add_argument("--latency-ms", type=float, default=defaults.latency_ms)
    parser.add_argument("--latency-sigma", type=float, default=defaults.latency_sigma)
    parser.add_argument("--rpm", type=int, default=defaults.requests_per_minute, help="requests/min per key")
    parser.add_argument("--tpm", type=int, default=defaults.tokens_per_minute, help="tokens/min per key")
    parser.add_argument("--fault-rate", type=float, default=defaults.fault_rate)
    parser.add_argument("--seed", type=int, default=defaults.seed, help="seed of the latency/fault RNG")
    parser.add_argument("--no-count-rejected", action="store_true",
                        help="rejected requests do not use request quota")
    parser.add_argument("--ready-file", type=Path, default=None, help="written with the base URL when ready")
    return parser.parse_args(argv)


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


async def serve(server: uvicorn.Server, sock: socket.socket, base_url: str, ready_file: Path | None) -> None:
    async def announce() -> None:
        while not server.started:
            if server.should_exit:
                return
            await asyncio.sleep(0.01)
        print(base_url, flush=True)
        if ready_file is not None:
            write_atomically(ready_file, base_url + "\n")

    announcer = asyncio.create_task(announce())
    try:
        await server.serve(sockets=[sock])
    finally:
        announcer.cancel()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    config = SimulatorConfig(latency_ms=args.latency_ms, latency_sigma=args.latency_sigma,
                             requests_per_minute=args.rpm, tokens_per_minute=args.tpm,
                             count_rejected=not args.no_count_rejected, fault_rate=args.fault_rate,
                             seed=args.seed)
    try:
        app = create_app(config, [p.resolve() for p in args.suite], args.log.resolve() if args.log else None)
    except (SuiteError, OSError) as exc:
        print(f"simulator: cannot load suites: {exc}", file=sys.stderr)
        return 2
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((args.host, args.port))
    sock.listen(1024)
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    base_url = f"http://{host}:{port}/v1"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           timeout_graceful_shutdown=2, lifespan="off"))
    asyncio.run(serve(server, sock, base_url, args.ready_file))
    return 0


if __name__ == "__main__":
    sys.exit(main())
