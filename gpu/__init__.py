"""The timing pool: one slot per card (or per reserved CPU core) for the timing steps of trials graded by speed.

Owns which cards a host has (``cards``: a count, ids, or 'auto'; stand-in cards for tests; reserved CPU
cores where there are no cards), handing each to one timing step at a time, first come first served, with
no card idle while work waits and every card given back even when the trial crashes (``pool``), and running one timing
command on the card it holds (``timing``). Every hold is recorded as an interval. Must not decide
what is timed or how a speed is scored: graders do.
"""

from nightshift.gpu.cards import cards_from, cpu_slots, discover_cards, pool_for, timing_pool, timing_slots
from nightshift.gpu.pool import CardInterval, GpuCard, GpuPool
from nightshift.gpu.timing import TimingRun, run_timing_step

__all__ = ["CardInterval", "GpuCard", "GpuPool", "TimingRun", "cards_from", "cpu_slots", "discover_cards", "pool_for",
           "run_timing_step", "timing_pool", "timing_slots"]
