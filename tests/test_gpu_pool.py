"""The GPU pool with stand-in cards: one timing step per card at a time (counted by the steps, not the pool), no
card idle while timing work waits (seen from outside: handed over at release, first come first served), cards
given back when a trial crashes (even when its process is killed), cards from configuration."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from nightshift.gpu import GpuCard, GpuPool, cards_from, run_timing_step
from nightshift.models import ExecResult

CARDS = 3
TRIALS = 30


class TimingCrash(RuntimeError):
    """The timing step of a trial blew up."""


def night_of_timing_trials(pool: GpuPool, seed: int = 3) -> tuple[list[tuple[float, float]], int, int]:
    """TRIALS threads: a compile step (concurrent, no card), then a timing step on one card; every 5th
    timing step crashes. Returns the compile intervals, the number of crashes seen, and the most timing steps
    seen inside one card at once (counted by the steps themselves, not by the pool)."""
    rng = random.Random(seed)
    plans = [(rng.uniform(0.0, 0.03), rng.uniform(0.01, 0.05)) for _ in range(TRIALS)]
    compiles: list[tuple[float, float]] = []
    crashes = []
    inside: Counter[str] = Counter()
    most = [0]
    lock = threading.Lock()

    def trial(i: int) -> None:
        compile_s, timing_s = plans[i]
        start = time.monotonic()
        time.sleep(compile_s)
        with lock:
            compiles.append((start, time.monotonic()))
        try:
            with pool.card(f"trial-{i}") as card:
                with lock:
                    inside[card.id] += 1
                    most[0] = max(most[0], inside[card.id])
                time.sleep(timing_s)
                with lock:
                    inside[card.id] -= 1
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
    return compiles, len(crashes), most[0]


def test_no_two_timing_steps_overlap_on_one_card() -> None:
    pool = GpuPool(cards_from(CARDS, stand_in=True))
    compiles, crashes, most_on_one_card = night_of_timing_trials(pool)
    intervals = pool.intervals()
    assert len(intervals) == TRIALS and crashes == TRIALS // 5
    assert most_on_one_card == 1, "two timing steps were inside one card at once"
    assert sum(i.crashed for i in intervals) == crashes
    assert {i.card for i in intervals} == {f"stand-in-{n}" for n in range(CARDS)}
    for card in {i.card for i in intervals}:  # and the pool's own record agrees
        held = sorted((i.granted, i.released) for i in intervals if i.card == card)
        for (_, end), (start, _) in zip(held, held[1:], strict=False):
            assert start >= end, f"two timing steps overlapped on card {card}"
    # compile steps do not queue for cards: more of them ran at once than there are cards
    peak = max(sum(s <= t < e for s, e in compiles) for t, _ in compiles)
    assert peak > CARDS


class Step:
    """A timing step on its own thread that holds its card until the test lets it go."""

    def __init__(self, pool: GpuPool, name: str, entered: list[str]) -> None:
        self.name, self.inside, self.done = name, threading.Event(), threading.Event()

        def hold() -> None:
            with pool.card(name):
                entered.append(name)
                self.inside.set()
                self.done.wait(30)

        self.thread = threading.Thread(target=hold, daemon=True)
        self.thread.start()

    def release(self) -> None:
        self.done.set()
        self.thread.join(10)


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + 10
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def test_no_card_idles_while_timing_work_waits(tmp_path: Path) -> None:
    """Seen from outside the pool, not from its own timestamps: with every card held and two steps waiting,
    each release lets exactly the longest waiter in, and a newcomer never takes a card a waiter is owed.
    Polling is a minute apart here, so only the hand-over at release can let a waiter in within the bound."""
    pool = GpuPool(cards_from(CARDS, stand_in=True), lock_dir=tmp_path, poll_s=60)
    entered: list[str] = []
    holders = [Step(pool, f"holder-{n}", entered) for n in range(CARDS)]
    wait_for(lambda: len(entered) == CARDS, "the holders did not get the free cards")
    waiters = []
    for n in (1, 2):
        waiters.append(Step(pool, f"waiter-{n}", entered))
        wait_for(lambda n=n: pool.waiting() == n, f"waiter-{n} did not queue")
    holders[0].release()
    assert waiters[0].inside.wait(10), "a card was released but the longest waiter did not get it"
    assert pool.waiting() == 1 and not waiters[1].inside.is_set()  # one card: one waiter in
    newcomer = Step(pool, "newcomer", entered)
    wait_for(lambda: pool.waiting() == 2, "the newcomer did not queue")
    holders[1].release()
    assert waiters[1].inside.wait(10) and not newcomer.inside.is_set()  # first come, first served
    holders[2].release()
    assert newcomer.inside.wait(10)
    for step in (*waiters, newcomer):
        step.release()
    assert entered[CARDS:] == ["waiter-1", "waiter-2", "newcomer"]
    pool.close()


def test_a_crashed_timing_step_gives_its_card_back() -> None:
    pool = GpuPool([GpuCard("stand-in-0", stand_in=True)])
    with pytest.raises(TimingCrash), pool.card("first"):
        raise TimingCrash("out of memory")
    second = Step(pool, "second", [])  # the only card: a leaked one would keep it waiting for ever
    assert second.inside.wait(10), "the crashed step's card never came back"
    second.release()
    first, again = pool.intervals()
    assert first.crashed and not again.crashed and pool.waiting() == 0


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
