"""Model proxy overhead per call, and derived-image build and reuse time.

    sudo .venv/bin/python -m bench.proxy_bench                      # bubblewrap (host root), 200 calls
    sudo .venv/bin/python -m bench.proxy_bench --calls 400 --images # also build + reuse a derived image

Overhead, measured side by side against one simulator (latency 0): the same request body is sent
(a) from the host through a GatewaySession (what a Python harness does), in a loop that runs during
(b): N calls from an agent inside a sandbox through the relay, the unix socket and the ModelProxy to
the gateway, so both meet the same machine load at the same time. Added per call = p50(b) - p50(a)
(and p90): the gateway and the simulator cancel out, and what remains is the loopback relay, the
socket hop, the proxy's checks and its trajectory line.
Images: a derived image with a one-line install on each backend, built then reused (cache hit).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.contracts import SandboxLimits, SandboxSpec
from nightshift.experiment.config import HarnessSpec, ModelEndpoint
from nightshift.gateway import ModelGateway
from nightshift.harnesses.command_harness import CommandHarness
from nightshift.harnesses.limits import TrialLimits
from nightshift.harnesses.resolve import resolve_harness
from nightshift.models import Case
from nightshift.sandbox.factory import backend_for
from nightshift.sandbox.images import latest_build
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator

BODY = {"model": "sim-strong", "messages": [{"role": "user", "content": "Reply with the word ok."}], "max_tokens": 8}
AGENT = """
import json, os, sys, time, urllib.request
body = json.dumps(BODY_JSON).encode()
times = []
for _ in range(int(sys.argv[1])):
    request = urllib.request.Request(os.environ["OPENAI_BASE_URL"] + "/chat/completions", data=body,
        headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"], "Content-Type": "application/json"})
    started = time.perf_counter()
    urllib.request.urlopen(request).read()
    times.append(round(time.perf_counter() - started, 6))
print("TIMES", json.dumps(times))
""".replace("BODY_JSON", repr(BODY))


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 2 else max(values)


def overhead(backend_name: str, image: str, calls: int) -> dict:
    with running_simulator(SimulatorConfig(latency_ms=0, requests_per_minute=1_000_000,
                                           tokens_per_minute=1_000_000_000), []) as url:
        gateway = ModelGateway.from_settings(url, "sk-bench", ModelEndpoint())
        session = gateway.session()
        direct: list[float] = []
        running = threading.Event()

        def direct_calls() -> None:  # at the same time as the proxied ones, so both meet the same load
            while running.is_set():
                started = time.perf_counter()
                session.complete(dict(BODY))
                direct.append(time.perf_counter() - started)
                time.sleep(0.002)
        backend = backend_for(backend_name, image)
        sandbox = backend.create(SandboxSpec(run_id="bench", trial_id="proxybench", limits=SandboxLimits()))
        spec = HarnessSpec(kind="command", run=f"python3 -c \"$AGENT_SRC\" {calls}", env={"AGENT_SRC": AGENT},
                           max_steps=calls + 1)
        case = Case(id="bench", suite="bench", domain="bench", instruction="bench", root=Path("/nonexistent"),
                    fail_to_pass=[], content_hash="x")
        trajectory = Path(tempfile.mkdtemp()) / "t.jsonl"
        running.set()
        side = threading.Thread(target=direct_calls)
        side.start()
        try:
            CommandHarness(resolve_harness(spec), "sim-strong").run(
                case, sandbox, gateway.session(), 0, trajectory, TrialLimits(calls + 1, 600))
        finally:
            running.clear()
            side.join()
            sandbox.destroy()
        end = [json.loads(line) for line in trajectory.read_text().splitlines()][-1]
        proxied = json.loads(end["stdout"].split("TIMES", 1)[1])
    skip = max(1, calls // 20)  # the first calls open connections and warm caches on both paths
    direct, proxied = direct[skip:], proxied[skip:]
    return {"backend": backend_name, "calls": len(proxied),
            "direct_p50_ms": statistics.median(direct) * 1e3, "proxied_p50_ms": statistics.median(proxied) * 1e3,
            "added_p50_ms": (statistics.median(proxied) - statistics.median(direct)) * 1e3,
            "added_p90_ms": (pct(proxied, 90) - pct(direct, 90)) * 1e3}


def image_times(backend_name: str, image: str) -> dict:
    from nightshift.harnesses.pins import derive

    install = [f"echo bench-{time.time_ns()} > /opt/nightshift-bench.txt"]  # a new key: a real build
    backend = backend_for(backend_name, image)
    spec = HarnessSpec(kind="command", run="true", install=install)
    _, built = derive(backend, spec)
    _, reused = derive(backend, spec)
    return {"backend": backend_name, "build_s": built.seconds, "reuse_s": reused.seconds, "key": built.key}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--backends", default="bubblewrap,docker")
    parser.add_argument("--images", action="store_true", help="also time a derived image build and its reuse")
    add_smoke(parser, calls=10)
    args = apply_smoke(parser.parse_args())
    build = latest_build()
    images = {"bubblewrap": "host", "docker": build.image_id if build else ""}
    print("| backend | calls | direct p50 ms | proxied p50 ms | added p50 ms | added p90 ms |")
    print("|---|---|---|---|---|---|")
    for name in args.backends.split(","):
        r = overhead(name, images[name], args.calls)
        print(f"| {name} | {r['calls']} | {r['direct_p50_ms']:.2f} | {r['proxied_p50_ms']:.2f} | "
              f"{r['added_p50_ms']:.2f} | {r['added_p90_ms']:.2f} |", flush=True)
    if args.images:
        roots = {"bubblewrap": str(build.rootfs) if build else "", "docker": images["docker"]}
        print("\n| backend | derived image build s | reuse s |\n|---|---|---|")
        for name in args.backends.split(","):
            r = image_times(name, roots[name])
            print(f"| {name} | {r['build_s']:.1f} | {r['reuse_s']:.3f} |", flush=True)
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
