"""Per-call cost of the model proxy in each wire protocol, against the gateway called directly.

    .venv/bin/python -m bench.protocol_bench --calls 500

One simulator (latency 0, no quota to speak of), one trial's ModelProxy on a unix socket (no sandbox: this
measures the proxy and its translation, not the relay; bench/proxy_bench.py measures the sandbox hop), and
the same one-turn request (``--size cli``: one of ~30 KB, the size and shape the Codex CLI and Claude Code send)
sent, interleaved round-robin so every mode meets the same load: directly through
a GatewaySession, then to the proxy as Chat Completions, Responses and Anthropic Messages, each as JSON and
as a stream (read to its end). Added per call = p50(mode) - p50(direct); the first 5% of each mode dropped.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.experiment.config import ModelEndpoint
from nightshift.gateway import ModelGateway
from nightshift.harnesses.limits import LimitGuard, TrialLimits
from nightshift.harnesses.proxy import ModelProxy
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.trajectory import TrajectoryLog

MODEL, TOKEN = "sim-strong", "nstrial-bench"
TEXT = "Reply with the word ok."
BODIES = {
    "chat": ("/v1/chat/completions", {"model": MODEL, "messages": [{"role": "user", "content": TEXT}],
                                      "max_tokens": 8}),
    "responses": ("/v1/responses", {"model": MODEL, "input": TEXT, "max_output_tokens": 8}),
    "anthropic": ("/v1/messages", {"model": MODEL, "messages": [{"role": "user", "content": TEXT}],
                                   "max_tokens": 8}),
}


def cli_bodies(instructions_kb: int = 24, tools: int = 8, turns: int = 3) -> dict[str, tuple[str, dict]]:
    """Requests of the size and shape Codex CLI and Claude Code send (docs/HARNESSES.md): ~24 KB of
    instructions, 8 function tools with schemas, a few turns of shell calls and their outputs."""
    system = ("You are a coding agent in a sandbox. Follow the repository's conventions. " * 400)[
        :instructions_kb * 1024]
    schema = {"type": "object", "properties": {"cmd": {"type": "string", "description": "Shell command."},
                                               "workdir": {"type": "string"}, "timeout_ms": {"type": "number"}},
              "required": ["cmd"], "additionalProperties": False}
    names = [f"tool_{i}" for i in range(tools)]
    chat_msgs: list[dict] = [{"role": "system", "content": system}, {"role": "user", "content": TEXT}]
    items: list[dict] = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": TEXT}]}]
    anth: list[dict] = [{"role": "user", "content": TEXT}]
    for turn in range(turns):
        call, args, out = f"call_{turn}", json.dumps({"cmd": f"cat file_{turn}.py"}), "x = 1\n" * 200
        chat_msgs += [{"role": "assistant", "content": "Reading.", "tool_calls": [
            {"id": call, "type": "function", "function": {"name": names[0], "arguments": args}}]},
            {"role": "tool", "tool_call_id": call, "content": out}]
        items += [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Reading."}]},
                  {"type": "function_call", "call_id": call, "name": names[0], "arguments": args},
                  {"type": "function_call_output", "call_id": call, "output": out}]
        anth += [{"role": "assistant", "content": [{"type": "text", "text": "Reading."}, {
            "type": "tool_use", "id": call, "name": names[0], "input": json.loads(args)}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": out}]}]
    return {
        "chat": ("/v1/chat/completions", {"model": MODEL, "messages": chat_msgs, "max_tokens": 8, "tools": [
            {"type": "function", "function": {"name": n, "parameters": schema}} for n in names]}),
        "responses": ("/v1/responses", {"model": MODEL, "instructions": system, "input": items,
                                        "max_output_tokens": 8, "tools": [
                                            {"type": "function", "name": n, "parameters": schema} for n in names]}),
        "anthropic": ("/v1/messages", {"model": MODEL, "system": system, "messages": anth, "max_tokens": 8,
                                       "tools": [{"name": n, "input_schema": schema} for n in names]}),
    }


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 2 else max(values)


def measure(calls: int, bodies: dict[str, tuple[str, dict]] = BODIES) -> dict[str, list[float]]:
    folder = Path(tempfile.mkdtemp(prefix="protocol-bench-"))
    config = SimulatorConfig(latency_ms=0, requests_per_minute=1_000_000, tokens_per_minute=1_000_000_000)
    with running_simulator(config, []) as url:
        session = ModelGateway.from_settings(url, "sk-bench", ModelEndpoint()).session()
        guard = LimitGuard(TrialLimits(max_calls=10 * calls + 10, wall_clock_s=3600), session)
        times: dict[str, list[float]] = {"direct": []}
        with TrajectoryLog(folder / "t.jsonl") as log, ModelProxy(folder / "m.sock", os.getuid(), session, guard,
                                                                  MODEL, 1, TOKEN, log):
            client = httpx.Client(transport=httpx.HTTPTransport(uds=str(folder / "m.sock")), base_url="http://proxy",
                                  headers={"authorization": f"Bearer {TOKEN}"})
            for _ in range(calls):
                started = time.perf_counter()
                session.complete(dict(bodies["chat"][1]))
                times["direct"].append(time.perf_counter() - started)
                for name, (path, body) in bodies.items():
                    for stream in (False, True):
                        started = time.perf_counter()
                        reply = client.post(path, json={**body, "stream": stream})
                        assert reply.status_code == 200, reply.text
                        times.setdefault(f"{name}{' stream' if stream else ''}", []).append(
                            time.perf_counter() - started)
    return {mode: values[len(values) // 20:] for mode, values in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per mode")
    parser.add_argument("--size", choices=["small", "cli"], default="small",
                        help="small: a one-turn request; cli: one the size of Codex CLI's and Claude Code's")
    add_smoke(parser, calls=20)
    args = apply_smoke(parser.parse_args())
    times = measure(args.calls, cli_bodies() if args.size == "cli" else BODIES)
    base = statistics.median(times["direct"]) * 1000
    rows = [{"mode": mode, "p50_ms": round(statistics.median(v) * 1000, 2), "p90_ms": round(pct(v, 90) * 1000, 2),
             "added_p50_ms": round(statistics.median(v) * 1000 - base, 2)} for mode, v in times.items()]
    print(f"load average {os.getloadavg()[0]:.1f}; {args.calls} calls per mode; {args.size} requests")
    print("| mode | p50 ms | p90 ms | added p50 ms |\n|---|---|---|---|")
    for row in rows:
        print(f"| {row['mode']} | {row['p50_ms']} | {row['p90_ms']} | {row['added_p50_ms']} |")
    print(json.dumps(rows))
    return judged(args, 0)  # no target: the figures are recorded in docs/BENCHMARKS.md


if __name__ == "__main__":
    sys.exit(main())
