"""A simulated night of 5,000 trials with time compressed: makespan against its lower bound, orchestration
overhead per trial, peak memory, and the planner's prediction against what happened (docs/BENCHMARKS.md).

    .venv/bin/python -m bench.night_bench            # --trials 5000 --concurrency 160 --minute-s 0.6
    .venv/bin/python -m bench.night_bench --production   # the same night on PostgreSQL + Redis

What is real: a `prefect server start` (SQLite, or with ``--production`` PostgreSQL + Redis as
`nightshift serve --production` runs it), the nightly flow's ``run_all`` (ThreadPoolTaskRunner,
``as_completed``, the progress artifact with the planner's ETA, result rows, per-trial result persistence
and cache keys), the planner (history, longest-first order, forecast), the model gateway (token buckets,
retries) and the simulator over HTTP with a requests/min and tokens/min quota. What is simulated: the
trial itself (``simulated_trial``: no sandbox, no agent, no grader): it sleeps its drawn duration in
``calls`` slices, sending one model request after each, so its model traffic and its length are real.

The night: 250 cases × 2 variants × 10 seeds. A case's typical length is lognormal (median 9 min,
sigma 0.6), the weak variant takes 15 % longer, each trial varies around its case (sigma 0.35), capped
at 120 min (a harness wall clock): mean ≈ 12 min, longest ≈ 1.5–2 h. A trial sends one request per
4 simulated minutes (at least one); its prompt size is a property of its case (lognormal, median 1,500
tokens). The tokens/min quota is sized so that its lower bound is ``--quota-load`` of the concurrency
bound: demand crosses it part of the time (when heavy cases happen to run together, and at the start).
``--heavy-long`` makes prompts grow with the case's length instead, so the long cases that run first
ask the most tokens and the quota binds for the first part of the night. "Last night" is a second draw
of the same cases (other trial noise): the planner learns from its Parquet, as from yesterday's. One
simulated minute lasts ``--minute-s`` seconds (0.6: a 6.5 h night in about 4 min).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import random
import resource
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx
from prefect import flow, task
from prefect.settings import PREFECT_API_URL, temporary_settings

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.flows.trial_map import run_all
from nightshift.gateway import ModelGateway, Quota
from nightshift.models import TrialResult
from nightshift.planner import Capacity, TrialLoad, forecast, learn_history, order_trials
from nightshift.planner.model import lower_bounds, simulate
from nightshift.simulator.request_log import read_log
from nightshift.tasks.results import write_parquet, write_result

CASES, VARIANTS, MAX_TOKENS, LATENCY_S, ENDPOINT_BURST_S = 250, (("strong", 1.0), ("weak", 1.15)), 64, 0.05, 2.0


@dataclass(frozen=True)
class BenchTrial:
    """One simulated trial: how long it works and what it asks of the model."""

    trial_id: str
    case_id: str
    variant: str
    seed: int
    duration_s: float
    calls: int
    prompt_chars: int

    @property
    def tokens(self) -> int:
        return self.calls * (self.prompt_chars // 4 + MAX_TOKENS)


class BenchContext:
    """What every simulated trial shares; ``spans``: (thread, start, end, planned duration) of each body."""

    def __init__(self, run_dir: Path, gateway: ModelGateway) -> None:
        self.run_dir, self.gateway = run_dir, gateway
        self.publisher = None  # run_all sets the night's Publisher here, as it does on a TrialContext
        self.spans: list[tuple[int, float, float, float]] = []
        self.lock = threading.Lock()


def draw_night(trials: int, minute_s: float, seed: int, noise_seed: int, heavy_long: bool = False
               ) -> list[BenchTrial]:
    """Cases from ``seed``; each trial's deviation from its case from ``noise_seed`` (another night).
    ``heavy_long``: prompts grow with the case's length, so the long cases that run first ask the most tokens."""
    rng, noise = random.Random(seed), random.Random(noise_seed)
    cases = [(f"case-{i:03d}", rng.lognormvariate(math.log(9), 0.6), rng.lognormvariate(0, 0.5))
             for i in range(CASES)]
    night = []
    for s in range(1, math.ceil(trials / (CASES * len(VARIANTS))) + 1):
        for case, minutes, context in cases:
            for variant, factor in VARIANTS:
                real_min = min(120.0, minutes * factor * noise.lognormvariate(0, 0.35))
                chars = int(min(40_000, max(800, 6000 * context * (math.sqrt(minutes / 9) if heavy_long else 1))))
                night.append(BenchTrial(f"{case}-{variant}-{s}", case, variant, s, real_min * minute_s,
                                        max(1, round(real_min / 4)), chars))
    return night[:trials]


def result_row(t: BenchTrial, run_id: str, duration_s: float, quota_wait_s: float = 0.0,
               calls: int | None = None) -> TrialResult:
    return TrialResult(trial_id=t.trial_id, run_id=run_id, case_id=t.case_id, suite="bench", domain="bench",
                       split="public", variant=t.variant, model="sim-strong", model_version="sim-strong-2026-11-01",
                       seed=t.seed, status="resolved", score=1.0, model_calls=calls or t.calls,
                       input_tokens=t.calls * (t.prompt_chars // 4), output_tokens=t.calls * MAX_TOKENS,
                       quota_wait_s=round(quota_wait_s, 3), duration_s=round(duration_s, 3))


def _cache_key(_context, parameters: dict) -> str:
    return f"bench-{parameters['spec'].trial_id}"


@task(name="simulated_trial", cache_key_fn=_cache_key, persist_result=True, result_serializer="json",
      cache_result_in_memory=False)
def simulated_trial(spec: BenchTrial, ctx: BenchContext) -> dict:
    """Work ``duration_s`` in ``calls`` slices with one model request in the middle of each; model latency is
    part of the work (as in a real trial, whose recorded duration includes it), quota and retry waits come on top."""
    t0 = time.monotonic()
    session = ctx.gateway.session()
    messages = [{"role": "user", "content": "x" * spec.prompt_chars}]
    for i in range(spec.calls):
        due = t0 + session.quota_wait_s + session.retry_wait_s + spec.duration_s * (i + 0.5) / spec.calls
        time.sleep(max(0.0, due - time.monotonic()))
        session.chat(model="sim-strong", messages=messages, tools=[], temperature=0.0, seed=spec.seed,
                     max_tokens=MAX_TOKENS)
    left = spec.duration_s + session.quota_wait_s + session.retry_wait_s - (time.monotonic() - t0)
    time.sleep(max(0.0, left))
    end = time.monotonic()
    with ctx.lock:
        ctx.spans.append((threading.get_ident(), t0, end, spec.duration_s))
    row = result_row(spec, ctx.run_dir.name, end - t0, session.quota_wait_s, session.calls)
    write_result(ctx.run_dir, row)
    return row.model_dump(mode="json")


@flow(name="night-bench")
def night_bench(url: str, work: str, trials: int, concurrency: int, minute_s: float, seed: int, rpm: float,
                tpm: float, heavy_long: bool = False) -> dict:
    """Order the night from last night's history, forecast it, run it through run_all; the raw figures."""
    night = draw_night(trials, minute_s, seed, seed + 1, heavy_long)
    history = learn_history([Path(work) / "last-night"])
    predict = {t.trial_id: history.predict(t.case_id, t.variant) for t in night}
    ordered = order_trials(night, lambda t: predict[t.trial_id].duration_s, block=lambda t: (t.seed, t.case_id))
    capacity = Capacity(concurrency, rpm, tpm)
    loads = [predict[t.trial_id] for t in ordered]
    before = forecast(loads, capacity)
    gateway = ModelGateway(url, f"sk-bench-{secrets.token_hex(4)}", max_retries=8, timeout_s=60,
                           quota=Quota(rpm, tpm))
    ctx = BenchContext(Path(work) / "tonight", gateway)
    started = time.monotonic()
    clock = run_all(ordered, ctx, concurrency, Path(work) / "cache", 0, loads=loads, capacity=capacity,
                    trial_task=simulated_trial)
    makespan = time.monotonic() - started
    rows = [json.loads(p.read_text()) for p in (ctx.run_dir / "results").glob("*.json")]
    actual = [TrialLoad(t.duration_s, t.tokens, t.calls) for t in ordered]
    listed = [TrialLoad(t.duration_s, t.tokens, t.calls) for t in night]
    return {"makespan_s": makespan, "started": started, "spans": ctx.spans, "forecast_s": before.makespan_s,
            "forecast_bound_s": before.lower_bound_s, "forecast_slowed": before.slowed_s,
            "model_on_actual_s": simulate(actual, capacity).makespan_s,
            "model_listed_order_s": simulate(listed, capacity).makespan_s,
            "bounds": lower_bounds(actual, capacity), "estimates": clock.estimates, "rows": len(rows),
            "quota_wait_s": sum(r["quota_wait_s"] for r in rows), "mean_trial_s": sum(t.duration_s for t in night)
            / len(night), "slowest_trial_s": max(r["duration_s"] for r in rows)}


def overheads(spans: list[tuple[int, float, float, float]], started: float) -> dict:
    """Per slot (thread), the gaps between one trial's end and the next one's start: orchestration time;
    and how much longer trial bodies ran than planned (model latency, quota waits, CPU contention)."""
    by_thread: dict[int, list[tuple[float, float]]] = {}
    for thread, start, end, _ in spans:
        by_thread.setdefault(thread, []).append((start, end))
    gaps, first = [], []
    for runs in by_thread.values():
        runs.sort()
        first.append(runs[0][0] - started)
        gaps += [b[0] - a[1] for a, b in zip(runs, runs[1:], strict=False)]
    gaps.sort()
    return {"per_trial_ms": 1000 * sum(gaps) / max(1, len(gaps)), "p50_ms": 1000 * gaps[len(gaps) // 2],
            "p99_ms": 1000 * gaps[int(len(gaps) * 0.99)], "max_first_start_s": max(first),
            "body_overrun_s": sum(end - start - planned for _, start, end, planned in spans)}


def saturation(log: list[dict], tpm: float, rpm: float, window_s: float = 5.0) -> dict:
    """Share of the night's 5-second windows in which the simulator charged ≥ 95 % of the tokens/min (requests/min)
    quota: how much of the night the quota really bound."""
    if not log:
        return {"tokens_saturated": 0.0, "requests_saturated": 0.0}
    t0 = min(r["t"] for r in log)
    windows: dict[int, list[float]] = {}
    for r in log:
        w = windows.setdefault(int((r["t"] - t0) // window_s), [0.0, 0.0])
        w[0] += r["charged_tokens"]
        w[1] += r["status"] == 200
    full = [w for k, w in windows.items() if k < max(windows)]  # the last window is partial
    return {"tokens_saturated": sum(w[0] >= 0.95 * tpm / 60 * window_s for w in full) / max(1, len(full)),
            "requests_saturated": sum(w[1] >= 0.95 * rpm / 60 * window_s for w in full) / max(1, len(full))}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _peak_rss_mib(pid_file: Path) -> float:
    """Peak resident memory of the process group recorded in ``pid_file`` (the Prefect server)."""
    group, peak = int(pid_file.read_text()), 0
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and int((proc / "stat").read_text().rsplit(")", 1)[1].split()[2]) == group:
                status = (proc / "status").read_text()
                peak += int(next(x for x in status.splitlines() if x.startswith("VmHWM")).split()[1])
        except (OSError, ValueError, StopIteration, IndexError):
            continue
    return peak / 1024


def quiet_console() -> None:
    """Keep Prefect's per-task INFO lines off the console (they still go to the API, as in a real night)."""
    from prefect.logging.handlers import PrefectConsoleHandler

    for handler in logging.getLogger().handlers + logging.getLogger("prefect").handlers:
        if isinstance(handler, PrefectConsoleHandler):
            handler.setLevel(logging.WARNING)


def main(argv: list[str] | None = None) -> int:
    from prefect.logging.handlers import APILogWorker

    from bench.night_report import bound_of, report
    from bench.server_health import backing_mib, log_findings, settled_counts
    from nightshift.deployments.server import ensure_server, stop_all
    from nightshift.simulator.config import SimulatorConfig
    from nightshift.simulator.embedded import running_simulator

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=5000)
    p.add_argument("--concurrency", type=int, default=160)
    p.add_argument("--minute-s", type=float, default=0.6, help="seconds one simulated minute lasts")
    p.add_argument("--quota-load", type=float, default=0.9, help="tokens/min bound as a fraction of the "
                   "concurrency bound (how tight the quota is)")
    p.add_argument("--heavy-long", action="store_true", help="prompts grow with the case's length: the quota "
                   "binds while the long cases run, early in the night")
    p.add_argument("--seed", type=int, default=20261129)
    p.add_argument("--json", type=Path, help="also write every figure here")
    p.add_argument("--keep", action="store_true", help="keep the work folder (Prefect state, results, request log)")
    p.add_argument("--production", action="store_true", help="run the Prefect server on PostgreSQL + Redis "
                   "(nightshift serve --production) instead of SQLite")
    add_smoke(p, trials=80, concurrency=8, minute_s=0.02)
    args = apply_smoke(p.parse_args(argv))
    work = Path(tempfile.mkdtemp(prefix="nightshift-night-bench-"))
    work.chmod(0o755)  # the postgres system user must reach its cluster folder inside
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally below stops the Prefect server
    last = draw_night(args.trials, args.minute_s, args.seed, args.seed, args.heavy_long)
    write_parquet([result_row(t, "last-night", t.duration_s) for t in last], work / "last-night" / "results.parquet")
    tonight = draw_night(args.trials, args.minute_s, args.seed, args.seed + 1, args.heavy_long)
    work_s = sum(t.duration_s for t in tonight) / args.concurrency
    tpm = 60 * sum(t.tokens for t in tonight) / (args.quota_load * work_s)
    rpm = 60 * sum(t.calls for t in tonight) / (0.6 * work_s)
    mode = "production" if args.production else "sqlite"
    # the endpoint's bucket holds 2 s of quota, deeper than the gateway's 1 s, as a provider's minute is; network
    # jitter is not compressed with time, so an endpoint bucket as shallow as ours would see it as bursts
    config = SimulatorConfig(latency_ms=LATENCY_S * 1000, requests_per_minute=int(rpm), tokens_per_minute=int(tpm),
                             burst_s=ENDPOINT_BURST_S)
    quiet_console()
    try:  # a server that fails to start must not leave its PostgreSQL and Redis behind either
        url = ensure_server(port=_free_port(), home=work / "prefect", state_dir=work, production=args.production)
        with temporary_settings(updates={PREFECT_API_URL: url}), \
                running_simulator(config, [], work / "requests.jsonl") as sim:
            raw = night_bench(sim, str(work), args.trials, args.concurrency, args.minute_s, args.seed, rpm, tpm,
                              args.heavy_long)
            stats = httpx.get(sim.removesuffix("/v1") + "/sim/stats", timeout=10).json()
            APILogWorker.drain_all(timeout=10)  # the night's log lines reach the server before it stops
        server_mib = _peak_rss_mib(work / "prefect-server.pid")
        # what the server kept: every task run's events, once its event persister has caught up
        health = {"mode": mode, **settled_counts(work, work / "prefect", mode), **backing_mib(work)}
    finally:
        stop_all(work)
    health.update(log_findings(work / "prefect-server.log"))
    raw.update(saturation(read_log(work / "requests.jsonl"), tpm, rpm), server=health)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    raw.update(overheads(raw.pop("spans"), raw["started"]), stats=stats, server_mib=server_mib, rpm=rpm, tpm=tpm,
               bench_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
               simulator_mib=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
               args={k: str(v) for k, v in vars(args).items()}, when=datetime.now(UTC).isoformat(timespec="seconds"))
    print(report(raw, args.minute_s))
    if args.json:
        args.json.write_text(json.dumps(raw, indent=1, default=str))
    return judged(args, 0 if bound_of(raw)[0] / raw["makespan_s"] >= 0.95 else 1)


if __name__ == "__main__":
    raise SystemExit(main())
