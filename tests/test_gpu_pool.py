"""The GPU pool with stand-in cards: one timing step per card at a time, no card idle while timing work
waits, cards given back when a trial crashes (even when its process is killed), cards from configuration."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from nightshift.gpu import CardInterval, GpuCard, GpuPool, cards_from, run_timing_step
from nightshift.models import ExecResult

CARDS = 3
TRIALS = 30


class TimingCrash(RuntimeError):
    """The timing step of a trial blew up."""


def night_of_timing_trials(pool: GpuPool, seed: int = 3) -> tuple[list[tuple[float, float]], int]:
    """TRIALS threads: a compile step (concurrent, no card), then a timing step on one card; every 5th
    timing step crashes. Returns the compile intervals and the number of crashes seen."""
    rng = random.Random(seed)
    plans = [(rng.uniform(0.0, 0.03), rng.uniform(0.01, 0.05)) for _ in range(TRIALS)]
    compiles: list[tuple[float, float]] = []
    crashes = []
    lock = threading.Lock()

    def trial(i: int) -> None:
        compile_s, timing_s = plans[i]
        start = time.monotonic()
        time.sleep(compile_s)
        with lock:
            compiles.append((start, time.monotonic()))
        try:
            with pool.card(f"trial-{i}"):
                time.sleep(timing_s)
                if i % 5 == 4:
                    raise TimingCrash(f"trial {i}: kernel segfaulted")
        except TimingCrash:
            with lock:
                crashes.append(i)

    threads = [threading.Thread(target=trial, args=(i,)) for i in range(TRIALS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return compiles, len(crashes)


def idle_while_waiting(intervals: list[CardInterval], cards: list[str]) -> float:
    """The longest time any card was free while some timing step was waiting for one."""
    worst = 0.0
    for waiting in intervals:
        lo, hi = waiting.requested, waiting.granted
        if hi <= lo:
            continue
        for card in cards:
            busy = sorted((i.granted, i.released) for i in intervals if i.card == card)
            free, cursor = 0.0, lo
            for start, end in busy:
                if end <= cursor or start >= hi:
                    continue
                free += max(0.0, start - cursor)
                cursor = max(cursor, end)
            free += max(0.0, hi - cursor)
            worst = max(worst, free)
    return worst


def test_no_two_timing_steps_overlap_on_one_card() -> None:
    pool = GpuPool(cards_from(CARDS, stand_in=True))
    compiles, crashes = night_of_timing_trials(pool)
    intervals = pool.intervals()
    assert len(intervals) == TRIALS and crashes == TRIALS // 5
    assert sum(i.crashed for i in intervals) == crashes
    assert {i.card for i in intervals} == {f"stand-in-{n}" for n in range(CARDS)}
    for card in {i.card for i in intervals}:
        held = sorted((i.granted, i.released) for i in intervals if i.card == card)
        for (_, end), (start, _) in zip(held, held[1:], strict=False):
            assert start >= end, f"two timing steps overlapped on card {card}"
    # compile steps do not queue for cards: more of them ran at once than there are cards
    peak = max(sum(s <= t < e for s, e in compiles) for t, _ in compiles)
    assert peak > CARDS


def test_no_card_idles_while_timing_work_waits() -> None:
    pool = GpuPool(cards_from(CARDS, stand_in=True))
    night_of_timing_trials(pool, seed=11)
    intervals = pool.intervals()
    assert sum(i.waited_s > 0 for i in intervals) >= TRIALS // 2  # the cards were contended
    # a card is handed over at the instant it is released; what is left is the pool's own bookkeeping (µs)
    assert idle_while_waiting(intervals, [c.id for c in pool.cards]) < 0.001
    # first come, first served: nobody is overtaken by a later request for long
    assert max(i.waited_s for i in intervals) < 1.0


@pytest.mark.exclusive  # a wall-clock window: run alone, after the parallel tests
def test_a_crashed_timing_step_gives_its_card_back() -> None:
    pool = GpuPool([GpuCard("stand-in-0", stand_in=True)])
    with pytest.raises(TimingCrash), pool.card("first"):
        raise TimingCrash("out of memory")
    with pool.card("second") as card:
        assert card.id == "stand-in-0"
    first, second = pool.intervals()
    assert first.crashed and not second.crashed and second.waited_s < 0.05


HOLDER = """
import sys, time
from pathlib import Path
from nightshift.gpu import GpuPool, GpuCard
pool = GpuPool([GpuCard("stand-in-0", stand_in=True)], lock_dir=Path(sys.argv[1]))
with pool.card("other-process"):
    print("held", flush=True)
    time.sleep(120)
"""


def test_a_killed_process_cannot_keep_a_card(tmp_path: Path) -> None:
    """Two processes on one host share a card through its lock file; SIGKILL of the holder frees it."""
    other = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        pool = GpuPool([GpuCard("stand-in-0", stand_in=True)], lock_dir=tmp_path, poll_s=0.01)
        got = threading.Event()

        def want_card() -> None:
            with pool.card("this-process"):
                got.set()

        waiter = threading.Thread(target=want_card)
        waiter.start()
        assert not got.wait(0.5), "the card was handed out while another process held it"
        other.send_signal(signal.SIGKILL)
        other.wait()
        assert got.wait(5), "the killed process's card never came back"
        waiter.join(5)
    finally:
        if other.poll() is None:
            other.kill()
            other.wait()
    pool.close()


def test_cards_come_from_configuration() -> None:
    assert [c.id for c in cards_from(2, stand_in=True)] == ["stand-in-0", "stand-in-1"]
    assert [c.id for c in cards_from(["0", "GPU-8f1c"])] == ["0", "GPU-8f1c"]
    assert cards_from(0) == []
    with pytest.raises(ValueError, match="unique"):
        GpuPool(cards_from(["0", "0"]))
    with pytest.raises(RuntimeError, match="gpu.cards"), GpuPool([]).card("t"):
        pass


class RecordingSandbox:
    def __init__(self) -> None:
        self.envs: list[dict] = []

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult:
        self.envs.append(dict(env or {}))
        return ExecResult(exit_code=0, stdout="1.23 ms\n", stderr="")


def test_the_timing_command_sees_exactly_its_card() -> None:
    pool = GpuPool(cards_from(["GPU-a", "GPU-b"]))
    sandbox = RecordingSandbox()
    with pool.card("someone-else"):
        run = run_timing_step(pool, "trial-1", sandbox, "python bench_kernel.py", timeout_s=60)
    assert run.card == "GPU-b" and run.result.stdout == "1.23 ms\n"
    assert sandbox.envs == [{"CUDA_VISIBLE_DEVICES": "GPU-b", "NVIDIA_VISIBLE_DEVICES": "GPU-b"}]
