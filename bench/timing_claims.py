"""The timing claims the tests no longer make: each measured side by side with a reference in the same run.

    python -m bench.timing_claims [--repeats 5] [--backends bubblewrap,docker]

The tests keep what can fail for its own reason on a loaded 2-core machine (order, counts, that a limit held,
on logical clocks or with bounds of many times the claim); how *soon* things happen is measured here. Each
figure is a ratio to something measured in the same run on the same machine, so load shifts both sides:

* quota gate (tests/test_gateway_buckets.py): 200 calls at 100/s (burst 10) from 40 threads, against the same
  200 from one thread; ideal 1.9 s. Claim: 40 threads leave at the quota rate, as one thread does.
* GPU pool hand-over (tests/test_gpu_pool.py): release of a card to the waiter entering its step, against a
  bare ``threading.Event`` wake-up. Claim: a released card reaches the waiter at once (no polling).
* working-time limit (tests/test_harness_working_clock.py): a harness that works past a 1 s limit is stopped
  at ``stopped after``; against the limit itself. Claim: stopped within a poll or two, not at its own end.
* sandbox exec (tests/test_sandbox_adversarial.py): a CPU spin with a 2 s timeout, against ``sleep 2`` in the
  same sandbox; a command that leaves background sleeps, against ``echo`` alone. Claims: killed at its
  timeout; the exec returns when its shell does.

Each figure is the median of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.contracts import SandboxLimits, SandboxSpec
from nightshift.experiment.config import HarnessSpec
from nightshift.gateway.buckets import Quota, QuotaGate
from nightshift.gpu import GpuCard, GpuPool
from nightshift.harnesses.limits import TrialLimits
from nightshift.harnesses.python_runner import run_python_harness
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import AgentOutcome, Case, CaseLimits

IDEAL_GATE_S = (200 - 10) / 100


def median_of(repeats: int, measure: Callable[[], float]) -> float:
    return statistics.median(measure() for _ in range(repeats))


def gate_elapsed(threads: int) -> float:
    """200 calls through one gate at 100/s, burst 10, split over ``threads``; seconds to the last departure."""
    gate = QuotaGate(Quota(requests_per_minute=6000, tokens_per_minute=None, burst_s=0.1))
    last = [0.0]
    lock = threading.Lock()

    def caller(calls: int) -> None:
        for _ in range(calls):
            gate.acquire(0)
            with lock:
                last[0] = max(last[0], time.monotonic())

    workers = [threading.Thread(target=caller, args=(200 // threads,)) for _ in range(threads)]
    start = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return last[0] - start


def handover_s() -> float:
    """A held card released: seconds until the waiting step is inside its block."""
    pool = GpuPool([GpuCard("stand-in-0", stand_in=True)])
    inside, release, entered = threading.Event(), threading.Event(), [0.0]

    def holder() -> None:
        with pool.card("holder"):
            inside.set()
            release.wait()
            entered[0] = time.perf_counter()  # the release starts as the block ends

    def waiter() -> None:
        with pool.card("waiter"):
            entered[0] = time.perf_counter() - entered[0]

    first = threading.Thread(target=holder)
    first.start()
    inside.wait()
    second = threading.Thread(target=waiter)
    second.start()
    while pool.waiting() == 0:
        time.sleep(0.001)
    release.set()
    first.join()
    second.join()
    return entered[0]


def event_wake_s() -> float:
    """The reference: one thread sets an Event, another wakes on it."""
    event, woke = threading.Event(), [0.0]

    def sleeper() -> None:
        event.wait()
        woke[0] = time.perf_counter()

    thread = threading.Thread(target=sleeper)
    thread.start()
    time.sleep(0.01)
    set_at = time.perf_counter()
    event.set()
    thread.join()
    return woke[0] - set_at


class _Session:
    waiting_s = cost_usd = 0.0
    input_tokens = output_tokens = 0


class _NoSandbox:
    id = "none"


class _Works:
    def __init__(self, model: str, settings) -> None:
        pass

    def run(self, case, sandbox, model, seed, trajectory) -> AgentOutcome:
        for _ in range(400):
            time.sleep(0.05)
        return AgentOutcome(ended_by="submitted", steps=0)


def stopped_after_s(limit_s: float) -> float:
    """Seconds until a harness working past ``limit_s`` of working time is stopped."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        case = Case(id="c", suite="s", domain="d", instruction="x", root=root, fail_to_pass=[], content_hash="0",
                    limits=CaseLimits(wall_clock_s=limit_s))
        resolved = ResolvedHarness(spec=HarnessSpec(kind="python", entrypoint="t:T"), target=_Works, settings=None)
        started = time.monotonic()
        limits = TrialLimits(max_calls=50, wall_clock_s=limit_s)
        outcome = run_python_harness(resolved, "m", case, sandbox=_NoSandbox(), session=_Session(), seed=1,
                                     trajectory=root / "t.jsonl", limits=limits)
        took = time.monotonic() - started
    assert outcome.ended_by == "timeout", outcome.reason
    return took


def sandbox_figures(name: str, repeats: int) -> dict[str, float]:
    from nightshift.sandbox.factory import backend_for
    from nightshift.sandbox.images import latest_build

    build = latest_build()
    if build is None:
        sys.exit("no sandbox image: run .venv/bin/python scripts/build_sandbox_image.py first")
    image = str(build.rootfs) if name == "bubblewrap" else build.image_id
    limits = SandboxLimits(cpus=1, memory_mb=128, pids=64, disk_mb=64, output_kb=64, cpu_seconds=60)
    box = backend_for(name, image).create(SandboxSpec(run_id="bench", trial_id="timing", limits=limits))
    try:
        def duration(command: str, timeout_s: float) -> float:
            return box.exec(command, timeout_s=timeout_s).duration_s

        background = ("sleep 3001 & setsid sleep 3001 & nohup sleep 3001 >/dev/null 2>&1 & "
                      "(trap '' HUP TERM; exec sleep 3001) & echo started")
        return {"spin": median_of(repeats, lambda: duration("(while :; do :; done) & python3 -c 'while True: "
                                                             "pass'", 2)),
                "sleep": median_of(repeats, lambda: duration("sleep 2", 30)),
                "background": median_of(repeats, lambda: duration(background, 30)),
                "echo": median_of(repeats, lambda: duration("echo started", 30))}
    finally:
        box.destroy()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.timing_claims", description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--backends", default="bubblewrap,docker", help="sandbox backends to time ('' for none)")
    add_smoke(parser, repeats=1)
    args = apply_smoke(parser.parse_args(argv))
    missed: list[str] = []

    def row(claim: str, measured: str, reference: str, ratio: float, target: float) -> None:
        print(f"| {claim} | {measured} | {reference} | {ratio:.2f} | ≤ {target:g} |")
        if ratio > target:
            missed.append(claim)

    print("| claim | measured | reference (same run) | ratio | target |\n| --- | --- | --- | --- | --- |")
    many, one = (median_of(args.repeats, lambda t=t: gate_elapsed(t)) for t in (40, 1))
    row("quota gate: 40 threads vs 1", f"{many:.3f} s", f"{one:.3f} s (ideal {IDEAL_GATE_S} s)", many / one, 1.2)
    row("quota gate: 40 threads vs ideal", f"{many:.3f} s", f"{IDEAL_GATE_S} s", many / IDEAL_GATE_S, 1.3)
    hand = median_of(args.repeats * 20, handover_s)
    wake = median_of(args.repeats * 20, event_wake_s)
    row("GPU card hand-over vs an Event wake-up", f"{hand * 1e6:.0f} µs", f"{wake * 1e6:.0f} µs", hand / wake, 5)
    stopped = median_of(args.repeats, lambda: stopped_after_s(1.0))
    row("working limit 1 s: stopped after", f"{stopped:.2f} s", "1 s (the limit)", stopped / 1.0, 1.5)
    for name in filter(None, args.backends.split(",")):
        figures = sandbox_figures(name, args.repeats)
        row(f"{name}: spin killed at a 2 s timeout vs sleep 2", f"{figures['spin']:.2f} s",
            f"{figures['sleep']:.2f} s", figures["spin"] / figures["sleep"], 1.5)
        row(f"{name}: exec leaving background sleeps vs echo", f"{figures['background']:.2f} s",
            f"{figures['echo']:.2f} s", figures["background"] / figures["echo"], 3)
    if missed:
        print(f"targets missed: {', '.join(missed)}")
    return judged(args, 1 if missed else 0)


if __name__ == "__main__":
    sys.exit(main())
