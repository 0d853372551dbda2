"""Fleet quota benchmark: three workers with uneven work on one key, fixed shares against one shared store.

    python -m bench.fleet_bench [--rpm 1200] [--calls 200] [--samples 2000]

One simulator (1,200 requests/min, a 2 s bucket, 50 ms latency, rejected requests counted) and one
redis-server (Debian's) on loopback. Each arm runs three `nightshift.gateway.loadgen` processes at once on
its own key: two have ``--calls`` calls of work, one half as many (it finishes half-way). ``fixed shares``:
each worker holds 1/3 of the quota (model.share), as before the store. ``shared store``: the same workers
with model.quota_store, reserving from the same Redis buckets. Figures are read server-side from the
simulator's request log: quota used over the whole night (successful requests / (quota × makespan)), the
429 share, the makespan; then the store's own cost per model call (one reservation round trip, p50/p95).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.gateway.fleet import FleetBuckets
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.request_log import key_hash, read_log
from tests.conftest import free_port
from tests.redis_support import RedisServer


def run_arm(url: str, log: Path, key: str, rpm: int, calls: list[int], store: str | None) -> dict:
    env = {**os.environ, "NIGHTSHIFT_API_KEY": key}
    extra = ["--quota-store", store] if store else []
    procs = [subprocess.Popen([sys.executable, "-m", "nightshift.gateway.loadgen", "--base-url", url, "--callers",
                               "16", "--seconds", "600", "--calls", str(n), "--rpm", str(rpm), "--share",
                               f"{1 / len(calls):.4f}", "--max-tokens", "32", "--handshake", *extra],
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for n in calls]
    for proc in procs:
        json.loads(proc.stdout.readline())
    start = time.time() + 0.5
    for proc in procs:
        proc.stdin.write(f"{start}\n")
        proc.stdin.flush()
    outs = [json.loads(p.communicate(timeout=900)[0].strip().splitlines()[-1]) for p in procs]
    rows = [r for r in read_log(log) if r["key_hash"] == key_hash(key)]
    ok = sum(r["status"] == 200 for r in rows)
    makespan = max(o["finished"] for o in outs) - start
    return {"ok": ok, "requests": len(rows), "429_share": sum(r["status"] == 429 for r in rows) / len(rows),
            "makespan_s": makespan, "quota_used": ok / (rpm / 60 * makespan),
            "worker_finished_s": sorted(round(o["finished"] - start, 1) for o in outs)}


def store_cost(store: str, samples: int) -> dict:
    fleet = FleetBuckets(store, "bench-cost")
    took = []
    for _ in range(samples):
        began = time.perf_counter()
        fleet.reserve(1e9, 1e12, 100)  # a quota so large that nobody waits: the round trip alone
        took.append((time.perf_counter() - began) * 1000)
    took.sort()
    return {"p50_ms": statistics.median(took), "p95_ms": took[int(0.95 * len(took))]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fleet_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rpm", type=int, default=1200)
    parser.add_argument("--calls", type=int, default=200, help="calls of the two full workers (the third: half)")
    parser.add_argument("--samples", type=int, default=2000)
    add_smoke(parser, rpm=1200, calls=16, samples=50)
    args = apply_smoke(parser.parse_args(argv))
    calls = [args.calls, args.calls, args.calls // 2]
    folder = Path(tempfile.mkdtemp(prefix="nightshift-fleet-bench-"))
    redis_server = RedisServer(free_port(), folder).start()
    config = SimulatorConfig(latency_ms=50, requests_per_minute=args.rpm, tokens_per_minute=100_000_000, burst_s=2)
    try:
        with running_simulator(config, [], folder / "requests.jsonl") as url:
            arms = {"fixed shares": run_arm(url, folder / "requests.jsonl", "sk-shares", args.rpm, calls, None),
                    "shared store": run_arm(url, folder / "requests.jsonl", "sk-store", args.rpm, calls,
                                            redis_server.url)}
        cost = store_cost(redis_server.url, args.samples)
    finally:
        redis_server.stop()
    print(f"three workers, calls {calls}, quota {args.rpm} requests/min; ideal makespan "
          f"{sum(calls) / (args.rpm / 60):.1f} s")
    print(f"{'arm':<14}{'quota used':>11}{'429s':>8}{'makespan':>10}  workers finished at")
    for name, arm in arms.items():
        print(f"{name:<14}{arm['quota_used']:>11.3f}{arm['429_share']:>8.2%}{arm['makespan_s']:>9.1f}s  "
              f"{arm['worker_finished_s']}")
    print(f"store cost per model call (one reservation, loopback): p50 {cost['p50_ms']:.2f} ms, "
          f"p95 {cost['p95_ms']:.2f} ms over {args.samples}")
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
