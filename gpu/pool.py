"""One slot per card: the timing step of a trial holds one slot of the timing pool exclusively, then gives it back.

A slot is a GPU card where the host has cards, otherwise one reserved CPU core (``GpuCard.cpu``), so the
same exclusive-timing path runs on every host (gpu/cards.py ``timing_slots``).

* Fair and without idle cards: requests are served first come, first served; a released card goes
  straight to the longest waiter (``_release`` hands it over under the lock), so no card is free
  while timing work waits in this process.
* Given back whatever happens: ``card()`` is a context manager that releases in ``finally`` (an
  exception in the timing step, a timeout); with ``lock_dir`` every held card is also an ``flock`` on
  one file per card, which the kernel drops when the process dies, so a SIGKILLed trial or flow
  process cannot leak a card either, and two processes on one host (two shard flow runs) never time
  on the same card. Cards another process holds are polled every ``poll_s``.
* Recorded: every hold is a ``CardInterval`` (requested, granted, released, crashed), which is what
  the tests check and what a night's report can show.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class GpuCard:
    """One slot of the timing pool: a card, named as CUDA_VISIBLE_DEVICES takes it ('0', 'GPU-<uuid>'), or a
    reserved CPU core (``cpu`` set, id 'cpu<N>') on a host without cards."""

    id: str
    stand_in: bool = False
    """No device behind it: tests and machines without GPUs use these."""
    cpu: int | None = None
    """A CPU-core slot: the timing command runs pinned to this core (the sandbox's cpuset) and sees no card."""

    def env(self) -> dict[str, str]:
        """Environment of a command that may use this card and no other (a CPU slot: no card at all)."""
        if self.cpu is not None:
            return {"CUDA_VISIBLE_DEVICES": "", "NIGHTSHIFT_TIMING_CPU": str(self.cpu)}
        env = {"CUDA_VISIBLE_DEVICES": self.id, "NVIDIA_VISIBLE_DEVICES": self.id}
        if self.stand_in:
            env["NIGHTSHIFT_GPU_STAND_IN"] = "1"
        return env


@dataclass(frozen=True)
class CardInterval:
    """One hold of one card (monotonic seconds)."""

    card: str
    holder: str
    requested: float
    granted: float
    released: float
    crashed: bool

    @property
    def waited_s(self) -> float:
        return self.granted - self.requested


@dataclass
class _Waiter:
    event: threading.Event
    card: GpuCard | None = None
    granted: float = 0.0


class GpuPool:
    """Cards handed out one holder at a time each, first come first served."""

    def __init__(self, cards: Sequence[GpuCard], lock_dir: Path | None = None, poll_s: float = 0.02,
                 clock: Callable[[], float] = time.monotonic) -> None:
        ids = [c.id for c in cards]
        if len(set(ids)) != len(ids):
            raise ValueError(f"GPU card ids must be unique, got {ids}; list each card once")
        self.cards = list(cards)
        self.poll_s = poll_s
        self.clock = clock
        self._lock = threading.Lock()
        self._free: list[GpuCard] = list(cards)
        self._queue: deque[_Waiter] = deque()
        self._intervals: list[CardInterval] = []
        self._files: dict[str, int] = {}
        if lock_dir is not None:
            Path(lock_dir).mkdir(parents=True, exist_ok=True)
            for card in cards:
                name = re.sub(r"[^A-Za-z0-9_.-]", "_", card.id)
                self._files[card.id] = os.open(Path(lock_dir) / f"card-{name}.lock", os.O_RDWR | os.O_CREAT, 0o666)

    @contextlib.contextmanager
    def card(self, holder: str) -> Iterator[GpuCard]:
        """Hold one card for the block (waiting for one if all are held); released even if the block raises."""
        if not self.cards:
            raise RuntimeError("this step needs a timing slot and the pool has none; set gpu.cards in the "
                               "experiment file (a count, a list of ids, or 'auto'), or gpu.timing_cores (core "
                               "numbers, or 'auto') on a host without cards")
        requested = self.clock()
        card, granted = self._acquire()
        crashed = True
        try:
            yield card
            crashed = False
        finally:
            released = self._release(card)
            with self._lock:
                self._intervals.append(CardInterval(card.id, holder, requested, granted, released, crashed))

    def intervals(self) -> list[CardInterval]:
        with self._lock:
            return list(self._intervals)

    def waiting(self) -> int:
        with self._lock:
            return len(self._queue)

    def _take(self) -> GpuCard | None:
        """A card free here and not held by another process (call with the lock held)."""
        for card in self._free:
            fd = self._files.get(card.id)
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    continue  # another process on this host holds it
            self._free.remove(card)
            return card
        return None

    def _acquire(self) -> tuple[GpuCard, float]:
        """A card and the instant it became ours (the pool's decision, not when this thread woke)."""
        with self._lock:
            if not self._queue and (card := self._take()) is not None:
                return card, self.clock()
            waiter = _Waiter(threading.Event())
            self._queue.append(waiter)
        try:
            while True:
                if waiter.event.wait(timeout=self.poll_s if self._files else None):
                    assert waiter.card is not None
                    return waiter.card, waiter.granted
                with self._lock:  # polling for a card another process let go: the longest waiter takes it
                    if waiter.card is not None:
                        return waiter.card, waiter.granted
                    if self._queue[0] is waiter and (card := self._take()) is not None:
                        self._queue.popleft()
                        return card, self.clock()
        except BaseException:
            with self._lock:
                if waiter in self._queue:
                    self._queue.remove(waiter)
            if waiter.card is not None:  # handed over while we were being interrupted: pass it on
                self._release(waiter.card)
            raise

    def _release(self, card: GpuCard) -> float:
        """Give ``card`` back; returns the instant, which is also the next holder's grant when one waits."""
        with self._lock:
            now = self.clock()
            if self._queue:  # straight to the longest waiter: the card (and its file lock) never idles
                waiter = self._queue.popleft()
                waiter.card, waiter.granted = card, now
                waiter.event.set()
                return now
            fd = self._files.get(card.id)
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_UN)
            self._free.append(card)
            self._free.sort(key=self.cards.index)
            return now

    def close(self) -> None:
        """Close the lock files (a held card's lock goes with its file)."""
        with self._lock:
            for fd in self._files.values():
                os.close(fd)
            self._files.clear()
