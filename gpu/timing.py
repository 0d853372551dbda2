"""The timing step of a grader: one command run on one slot of the timing pool, held exclusively.

Compile and correctness checks run like any other test, concurrently with every other trial; only the
step whose *speed* is graded holds a slot, so a pool of a few slots serves a night of many concurrent
trials. On a card the command sees exactly that card (CUDA_VISIBLE_DEVICES; the sandbox backend must
expose the host's GPU devices for a real card to be usable inside it). On a CPU-core slot the sandbox is
pinned to that core for the step (its cpuset, through the backend's optional ``pin_cpus``) and sees no
card. The step's own start and end (wall clock, inside the hold) are recorded, so intervals from several
processes or hosts' rows can be checked for overlap per slot.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

from nightshift.contracts import Sandbox
from nightshift.gpu.pool import GpuCard, GpuPool
from nightshift.models import ExecResult


@dataclass
class TimingRun:
    """What one timing step did and where."""

    card: str
    result: ExecResult
    waited_s: float
    started: float = 0.0  # wall-clock seconds (time.time) when the timed command started, inside the hold
    ended: float = 0.0  # ... and when it ended, before the slot was given back
    pinned: str = ""  # the cores a CPU slot's command was confined to; "" for a card; "not pinned: why" otherwise


def pin_of(sandbox: Sandbox, slot: GpuCard) -> contextlib.AbstractContextManager[bool]:
    """The sandbox's cpuset pin for a CPU slot (``pin_cpus``, optional on a backend); a card needs none."""
    pin = getattr(sandbox, "pin_cpus", None)
    if slot.cpu is None or pin is None:
        return contextlib.nullcontext(False)
    return pin(str(slot.cpu))


def run_timing_step(pool: GpuPool, holder: str, sandbox: Sandbox, command: str, timeout_s: float) -> TimingRun:
    """Run ``command`` in ``sandbox`` holding one slot of ``pool``; the slot is given back however it ends."""
    requested = pool.clock()
    with pool.card(holder) as card:
        waited_s = pool.clock() - requested
        with pin_of(sandbox, card) as pinned:
            started = time.time()
            result = sandbox.exec(command, timeout_s, env=card.env())
            ended = time.time()
    how = "" if card.cpu is None else str(card.cpu) if pinned else "not pinned: the sandbox has no cpuset here"
    return TimingRun(card=card.id, result=result, waited_s=waited_s, started=started, ended=ended, pinned=how)
