"""Command line: ``python -m simulator --port 0 --suite DIR [--ready-file FILE] [--fault reset=0.01] ...``.

Binds the socket first (port 0 picks a free one), starts uvicorn on it, and once the server is
accepting requests prints the base URL (``http://HOST:PORT/v1``) and writes it atomically to
``--ready-file``. SIGTERM or SIGINT stop it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
from pathlib import Path

import uvicorn
from pydantic import ValidationError

from nightshift.errors import SuiteError
from nightshift.simulator.config import FAULT_KINDS, SimulatorConfig
from nightshift.simulator.server import create_app


def _fault(text: str) -> tuple[str, float]:
    kind, sep, rate = text.partition("=")
    if not sep or kind not in FAULT_KINDS:
        raise argparse.ArgumentTypeError(f"expected KIND=RATE with KIND one of {', '.join(FAULT_KINDS)}")
    return kind, float(rate)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    defaults = SimulatorConfig()
    parser = argparse.ArgumentParser(prog="python -m simulator",
                                     description="OpenAI-compatible stand-in model for nightshift.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--suite", action="append", type=Path, default=[], help="suite folder (repeatable)")
    parser.add_argument("--log", type=Path, default=None, help="request log (JSON lines)")
    parser.add_argument("--config-json", default=None, help="a whole SimulatorConfig as JSON; flags override it")
    parser.add_argument("--latency-ms", type=float, help=f"mean latency (default {defaults.latency_ms})")
    parser.add_argument("--latency-sigma", type=float, help="sigma of the lognormal latency")
    parser.add_argument("--latency-distribution", choices=["lognormal", "exponential", "uniform", "constant"])
    parser.add_argument("--rpm", type=int, help=f"requests/min per key (default {defaults.requests_per_minute})")
    parser.add_argument("--tpm", type=int, help=f"tokens/min per key (default {defaults.tokens_per_minute})")
    parser.add_argument("--burst-s", type=float, help="seconds of quota a full bucket holds (default 60)")
    parser.add_argument("--fault-rate", type=float, help="fraction of requests answered 500/503")
    parser.add_argument("--fault", type=_fault, action="append", default=[],
                        help=f"KIND=RATE, KIND one of {', '.join(FAULT_KINDS)} (repeatable)")
    parser.add_argument("--hang-s", type=float, help="how long a 'timeout' fault holds a request")
    parser.add_argument("--seed", type=int, help="seed of the latency/fault RNG")
    parser.add_argument("--no-count-rejected", action="store_true",
                        help="rejected requests do not use request quota")
    parser.add_argument("--ready-file", type=Path, default=None, help="written with the base URL when ready")
    return parser.parse_args(argv)


def config_from_args(args: argparse.Namespace) -> SimulatorConfig:
    """The JSON config (if any) with every flag that was given laid over it."""
    fields = json.loads(args.config_json) if args.config_json else {}
    flags = {"latency_ms": args.latency_ms, "latency_sigma": args.latency_sigma,
             "latency_distribution": args.latency_distribution, "requests_per_minute": args.rpm,
             "tokens_per_minute": args.tpm, "burst_s": args.burst_s, "fault_rate": args.fault_rate,
             "hang_s": args.hang_s, "seed": args.seed}
    fields.update({k: v for k, v in flags.items() if v is not None})
    if args.fault:
        fields["faults"] = {**fields.get("faults", {}), **dict(args.fault)}
    if args.no_count_rejected:
        fields["count_rejected"] = False
    return SimulatorConfig.model_validate(fields)


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
    try:
        config = config_from_args(args)
    except (ValueError, ValidationError) as exc:
        print(f"simulator: bad settings: {exc}", file=sys.stderr)
        return 2
    try:
        app = create_app(config, [p.resolve() for p in args.suite], args.log.resolve() if args.log else None)
    except (SuiteError, OSError) as exc:
        print(f"simulator: cannot load suites: {exc}", file=sys.stderr)
        return 2
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on accepted sockets whose proto says TCP; without it
    # every reply on a kept-alive connection waited 40 ms (Nagle holding the body for the client's delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
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
