"""Gateway benchmark: how much of a 600 requests/min, 200k tokens/min quota each client uses, and at how
many 429s, with 128 concurrent callers; plus what Prefect's concurrency limits cost (docs/BENCHMARKS.md).

    python -m bench.gateway_bench [--window-s 90] [--warmup-s 15] [--arms gateway,tenacity,prefect,sdk] [--lenient]

One simulator (1 s lognormal latency, a 5 s bucket, rejected requests counted, as DESIGN.md's peer
measurement); one API key per arm, so arms do not share a bucket; arms run one after another. Every
figure is read server-side from the simulator's request log, in a steady window that starts after
``warmup_s`` (the initial full bucket is spent by then) and lasts ``window_s``. ``quota fraction`` =
successful requests (tokens: the tokens the limiter charged them) / (quota rate × window); the
"adjusted" figure also adds to the denominator what the key's bucket held at the window's start
beyond what it held at its end, so quota saved up before the window cannot inflate a result.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from bench import gateway_arms
from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.gateway.loadgen import drive
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.request_log import key_hash, read_log

RPM, TPM, MODEL, MAX_TOKENS = 600, 200_000, "sim-strong", 130
ALL_ARMS = ("gateway", "tenacity", "prefect", "sdk")


def quota_levels(url: str, key: str) -> dict[str, float]:
    levels = httpx.get(url.removesuffix("/v1") + "/sim/stats", timeout=10).json()["quota"]
    return levels.get(key_hash(key), {"requests": RPM * 5 / 60, "tokens": TPM * 5 / 60})


def run_arm(arm: str, url: str, log: Path, callers: int, warmup_s: float, window_s: float) -> dict:
    key = f"sk-bench-{arm}-{secrets.token_hex(4)}"
    stop = threading.Event()
    seconds = warmup_s + window_s
    deadline = time.monotonic() + seconds
    extra: dict = {}
    if arm == "gateway":
        call, gateway = gateway_arms.gateway_arm(url, key, MODEL, MAX_TOKENS, RPM, TPM, stop)
    elif arm == "tenacity":
        call = gateway_arms.tenacity_arm(url, key, MODEL, MAX_TOKENS, stop)
    elif arm == "sdk":
        call = gateway_arms.sdk_arm(url, key, MODEL, MAX_TOKENS, stop)
    else:
        from bench.prefect_costs import set_limit

        set_limit("bench-rpm", RPM // 60, slot_decay_per_second=RPM / 60)  # 1 s burst, 10/s, like the gateway
        call = gateway_arms.prefect_arm(url, key, MODEL, MAX_TOKENS, "bench-rpm", deadline, stop)
    marks: dict[str, tuple[float, dict]] = {}

    def mark(name: str, at: float) -> None:
        time.sleep(max(0.0, at - time.monotonic()))
        marks[name] = (time.time(), quota_levels(url, key))

    start = time.monotonic()
    timers = [threading.Thread(target=mark, args=(n, start + t), daemon=True)
              for n, t in (("window_start", warmup_s), ("window_end", seconds))]
    for timer in timers:
        timer.start()
    started = time.time()
    result = drive(call, callers, seconds, stop=stop, grace_s=10)
    for timer in timers:
        timer.join()
    time.sleep(2.5)  # requests still in flight reach the log
    if arm == "gateway":
        extra["gate"] = gateway.gate.snapshot()
    return summarise(arm, read_log(log), key, started, marks, window_s, result.ok, result.failed) | extra


def summarise(arm: str, rows: list[dict], key: str, started: float, marks: dict, window_s: float,
              client_ok: int, client_failed: dict) -> dict:
    mine = [r for r in rows if r["key_hash"] == key_hash(key)]
    (t0, level0), (t1, level1) = marks["window_start"], marks["window_end"]
    window = [r for r in mine if t0 <= r["t"] < t1]
    ok = [r for r in window if r["status"] == 200 and r["fault"] is None]
    charged = sum(r["charged_tokens"] for r in ok)
    saved_requests = max(0.0, level0["requests"] - level1["requests"])
    saved_tokens = max(0.0, level0["tokens"] - level1["tokens"])
    span = t1 - t0
    whole = [r for r in mine if r["t"] >= started]
    return {
        "arm": arm, "window_s": round(span, 1), "requests": len(window), "ok": len(ok),
        "rate_limited": sum(r["status"] == 429 for r in window),
        "rpm_fraction": round(len(ok) / (RPM / 60 * span), 3),
        "tpm_fraction": round(charged / (TPM / 60 * span), 3),
        "rpm_fraction_adjusted": round(len(ok) / (RPM / 60 * span + saved_requests), 3),
        "tpm_fraction_adjusted": round(charged / (TPM / 60 * span + saved_tokens), 3),
        "fraction_429": round(sum(r["status"] == 429 for r in window) / max(1, len(window)), 4),
        "fraction_429_whole_run": round(sum(r["status"] == 429 for r in whole) / max(1, len(whole)), 4),
        "usage_tokens_per_min": round(sum(r["prompt_tokens"] + r["completion_tokens"] for r in ok) / span * 60),
        "client_ok": client_ok, "client_failed": client_failed,
        "bucket_at_window": {"start": level0, "end": level1},
    }


def markdown(results: list[dict], slots: dict | None, args: argparse.Namespace) -> str:
    counted = "not counted" if args.lenient else "counted"
    lines = [f"Quota {RPM} requests/min, {TPM:,} tokens/min (5 s bucket, rejected requests {counted}), "
             f"{args.callers} concurrent callers, 1 s lognormal latency; steady window {args.window_s:.0f} s "
             f"after {args.warmup_s:.0f} s warm-up.", "",
             "| client | RPM / quota | TPM / quota | adjusted RPM / TPM | 429s / requests (window) | "
             "429s / requests (whole run) | calls failed after retries |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        failed = sum(r["client_failed"].values())
        lines.append(f"| {r['arm']} | {r['rpm_fraction']:.3f} | {r['tpm_fraction']:.3f} | "
                     f"{r['rpm_fraction_adjusted']:.3f} / {r['tpm_fraction_adjusted']:.3f} | "
                     f"{r['fraction_429']:.4f} ({r['rate_limited']}/{r['requests']}) | "
                     f"{r['fraction_429_whole_run']:.4f} | {failed} |")
    if slots:
        lines += ["", "Prefect global concurrency limit as a per-trial API slot (seconds):", "",
                  "| measurement | value |", "|---|---|"] + [f"| {k} | {v} |" for k, v in slots.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gateway_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--arms", default="gateway,tenacity,prefect", help=f"comma list of {','.join(ALL_ARMS)}")
    parser.add_argument("--callers", type=int, default=128)
    parser.add_argument("--warmup-s", type=float, default=15)
    parser.add_argument("--window-s", type=float, default=90)
    parser.add_argument("--no-slots", action="store_true", help="skip the Prefect slot-cost measurement")
    parser.add_argument("--lenient", action="store_true",
                        help="the endpoint does not count rejected requests against the quota")
    parser.add_argument("--out", type=Path, default=Path("runs/bench/gateway_bench.json"))
    add_smoke(parser, arms="gateway", callers=16, warmup_s=2.0, window_s=4.0, no_slots=True)
    args = apply_smoke(parser.parse_args(argv))
    arms = [a for a in args.arms.split(",") if a]
    unknown = set(arms) - set(ALL_ARMS)
    if unknown:
        parser.error(f"unknown arms {sorted(unknown)}; choose from {', '.join(ALL_ARMS)}")
    needs_prefect = "prefect" in arms or not args.no_slots
    config = SimulatorConfig(latency_ms=1000, latency_sigma=0.3, requests_per_minute=RPM, tokens_per_minute=TPM,
                             burst_s=5, count_rejected=not args.lenient)
    results, slots = [], None
    with tempfile.TemporaryDirectory(prefix="nightshift-bench-") as tmp, \
            running_simulator(config, [], Path(tmp) / "requests.jsonl") as url:
        from contextlib import nullcontext

        from bench.prefect_costs import measure_slot_costs, temporary_server

        with temporary_server() if needs_prefect else nullcontext():
            for arm in arms:
                print(f"arm {arm}: {args.warmup_s + args.window_s:.0f} s ...", file=sys.stderr, flush=True)
                results.append(run_arm(arm, url, Path(tmp) / "requests.jsonl", args.callers, args.warmup_s,
                                       args.window_s))
                print(json.dumps(results[-1]), file=sys.stderr, flush=True)
            if not args.no_slots:
                print("prefect slot costs ...", file=sys.stderr, flush=True)
                slots = measure_slot_costs()
    report = markdown(results, slots, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"results": results, "slots": slots, "args": vars(args) | {"out": str(args.out)}},
                                   indent=1))
    print(report)
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
