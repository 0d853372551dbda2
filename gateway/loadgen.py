"""Synthetic load: many concurrent callers making chat calls for a while, through any client.

Used by bench/gateway_bench.py and by the shared-quota test, and by an operator who wants to see the
gateway hold a quota: ``NIGHTSHIFT_API_KEY=... python -m nightshift.gateway.loadgen --base-url URL --callers 128
--seconds 60 --rpm 600 --tpm 200000 [--share 0.5]`` prints a JSON summary. The API key is read from the
environment, never from the command line (where ``ps`` would show it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from nightshift.gateway.buckets import Quota
from nightshift.gateway.client import ModelGateway

WORDS = ("quota", "bucket", "token", "retry", "night", "trial", "sandbox", "grader", "model", "shard")


def synthetic_messages(rng: random.Random, min_chars: int, max_chars: int) -> list[dict]:
    """A system and a user message whose contents total between ``min_chars`` and ``max_chars``."""
    target = rng.randint(min_chars, max_chars)
    system = "You are a load generator's counterpart. Reply briefly."
    words: list[str] = []
    length = len(system)
    while length < target:
        words.append(rng.choice(WORDS))
        length += len(words[-1]) + 1
    text = " ".join(words)[: max(1, target - len(system))]
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


@dataclass
class LoadResult:
    """What the callers saw: successes, failures by kind, and when each call ended."""

    ok: int = 0
    failed: dict[str, int] = field(default_factory=dict)
    ended: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, error: str | None) -> None:
        with self.lock:
            self.ended.append(time.time())
            if error is None:
                self.ok += 1
            else:
                self.failed[error] = self.failed.get(error, 0) + 1


def drive(call: Callable[[list[dict]], None], callers: int, seconds: float, min_chars: int = 600,
          max_chars: int = 1000, seed: int = 0, stop: threading.Event | None = None,
          grace_s: float = 30.0) -> LoadResult:
    """Run ``callers`` threads that each call ``call(messages)`` back to back until ``seconds`` have passed.

    ``call`` raises to report a failure (its exception's type name is counted). Threads are daemons and
    are given ``grace_s`` to finish their last call; ``stop`` is set when the time is up.
    """
    stop = stop or threading.Event()
    result = LoadResult()
    deadline = time.monotonic() + seconds

    def caller(index: int) -> None:
        rng = random.Random(f"{seed}:{index}")
        while time.monotonic() < deadline and not stop.is_set():
            try:
                call(synthetic_messages(rng, min_chars, max_chars))
                result.record(None)
            except Exception as exc:  # noqa: BLE001 - every failure is data for the summary
                result.record(type(exc).__name__)

    threads = [threading.Thread(target=caller, args=(i,), daemon=True, name=f"load-{i}") for i in range(callers)]
    for thread in threads:
        thread.start()
    stop.wait(max(0.0, deadline - time.monotonic()))  # returns early once a caller set it (--calls)
    stop.set()
    end = time.monotonic() + grace_s
    for thread in threads:
        thread.join(max(0.0, end - time.monotonic()))
    return result


def gateway_caller(gateway: ModelGateway, model: str, max_tokens: int) -> Callable[[list[dict]], None]:
    """A ``drive`` call that goes through ``gateway`` (one session per call, like one short trial)."""
    def call(messages: list[dict]) -> None:
        gateway.session().chat(model=model, messages=messages, tools=[], temperature=0.0, seed=0,
                               max_tokens=max_tokens)
    return call


def _stop_after(call: Callable[[list[dict]], None], calls: int, stop: threading.Event
                ) -> Callable[[list[dict]], None]:
    """A call that sets ``stop`` once ``calls`` of them have succeeded (a worker with a fixed amount of work)."""
    done = [0]
    lock = threading.Lock()

    def limited(messages: list[dict]) -> None:
        call(messages)
        with lock:
            done[0] += 1
            if done[0] >= calls:
                stop.set()
    return limited


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m nightshift.gateway.loadgen", description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--api-key-env", default="NIGHTSHIFT_API_KEY")
    parser.add_argument("--model", default="sim-strong")
    parser.add_argument("--callers", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rpm", type=float, default=None, help="requests/min of the key (unset: learn it)")
    parser.add_argument("--tpm", type=float, default=None, help="tokens/min of the key (unset: learn it)")
    parser.add_argument("--share", type=float, default=1.0)
    parser.add_argument("--quota-store", default=None, help="redis://... shared by the fleet (model.quota_store)")
    parser.add_argument("--calls", type=int, default=None, help="stop after this many successful calls")
    parser.add_argument("--burst-s", type=float, default=Quota.burst_s)
    parser.add_argument("--max-tokens", type=int, default=130)
    parser.add_argument("--min-chars", type=int, default=600)
    parser.add_argument("--max-chars", type=int, default=1000)
    parser.add_argument("--max-retries", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start-at", type=float, default=None,
                        help="wall-clock time (epoch seconds) to start at, so several processes start together")
    parser.add_argument("--handshake", action="store_true",
                        help="print a 'ready' line, then read the start time (epoch seconds) from stdin")
    args = parser.parse_args(argv)
    key = os.environ.get(args.api_key_env)
    if not key:
        print(f"loadgen: set {args.api_key_env} to the API key", file=sys.stderr)
        return 2
    gateway = ModelGateway(args.base_url, key, max_retries=args.max_retries, timeout_s=60,
                           quota=Quota(args.rpm, args.tpm, args.share, args.burst_s), quota_store=args.quota_store)
    start_at = args.start_at
    if args.handshake:
        print(json.dumps({"ready": True}), flush=True)
        start_at = float(sys.stdin.readline())
    if start_at is not None:
        time.sleep(max(0.0, start_at - time.time()))
    started = time.time()
    stop = threading.Event()
    call = gateway_caller(gateway, args.model, args.max_tokens)
    if args.calls is not None:
        call = _stop_after(call, args.calls, stop)
    result = drive(call, args.callers, args.seconds, args.min_chars, args.max_chars, args.seed, stop=stop)
    print(json.dumps({"started": started, "finished": time.time(), "ok": result.ok, "failed": result.failed,
                      "gate": gateway.gate.snapshot()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

