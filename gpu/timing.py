"""The timing step of a grader: one command run on one card held exclusively.

Compile and correctness checks of a GPU case run like any other test, concurrently with every other
trial; only the step whose *speed* is graded holds a card, so a pool of a few cards serves a night of
many concurrent trials. The command sees exactly one card (CUDA_VISIBLE_DEVICES); the sandbox backend
must expose the host's GPU devices for a real card to be usable inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from nightshift.contracts import Sandbox
from nightshift.gpu.pool import GpuPool
from nightshift.models import ExecResult


@dataclass
class TimingRun:
    """What one timing step did and where."""

    card: str
    result: ExecResult
    waited_s: float


def run_timing_step(pool: GpuPool, holder: str, sandbox: Sandbox, command: str, timeout_s: float) -> TimingRun:
    """Run ``command`` in ``sandbox`` holding one card of ``pool``; the card is given back however it ends."""
    requested = pool.clock()
    with pool.card(holder) as card:
        waited_s = pool.clock() - requested
        result = sandbox.exec(command, timeout_s, env=card.env())
    return TimingRun(card=card.id, result=result, waited_s=waited_s)
