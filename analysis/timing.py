"""The timing steps of a night (cases graded by speed): speedups, timing noise, and how the slots were used.

Read from the rows' ``timing_*`` columns (tasks/run_trial.py: one timing step per timed trial, its slot and
its wall-clock interval, and its host) and ``score.speedup``. ``overlaps`` counts pairs of timing steps that
were on one slot of one host at the same time — the timing pool's promise is that there are none, across
every process and shard that wrote the rows.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from nightshift.analysis.source import sql_text

NEEDED = {"timing_slot", "timing_start", "timing_end", "timing_wait_s", "timing_noise", "case_id", "variant"}


@dataclass
class SlotUse:
    """One slot over the night: how many steps it timed, how long it was held, and any overlap."""

    slot: str
    steps: int
    held_s: float
    span_s: float  # first start to last end
    overlaps: int

    @property
    def utilisation(self) -> float:
        return self.held_s / self.span_s if self.span_s > 0 else 0.0


@dataclass
class TimingSummary:
    """Per case and variant: timed trials, median speedup and noise; per slot: its use."""

    rows: list[dict] = field(default_factory=list)
    slots: list[SlotUse] = field(default_factory=list)

    @property
    def overlaps(self) -> int:
        return sum(s.overlaps for s in self.slots)


def overlapping_pairs(intervals: Sequence[tuple[float, float]]) -> int:
    """How many pairs of these (start, end) intervals overlap (touching ends do not)."""
    ordered = sorted(intervals)
    return sum(1 for i, (_, end) in enumerate(ordered) for start, _ in ordered[i + 1:] if start < end)


def timing_summary(files: Sequence[Path | str]) -> TimingSummary | None:
    """What the timing steps of these Parquet files did; None when no row has a timing step."""
    scan = "read_parquet([" + ", ".join(sql_text(Path(f).as_posix()) for f in files) + "], union_by_name = true)"
    con = duckdb.connect(":memory:")
    columns = {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()}
    if not columns >= NEEDED:
        return None
    speedup = '"score.speedup"' if "score.speedup" in columns else "NULL::DOUBLE"
    # a slot is exclusive on its own host: cpu1 of two shard hosts are two slots
    slot = ("CASE WHEN coalesce(timing_host, '') = '' THEN timing_slot ELSE timing_slot || '@' || timing_host END"
            if "timing_host" in columns else "timing_slot")
    timed = con.execute(f"""SELECT case_id, variant, {slot}, timing_start, timing_end, timing_wait_s,
        timing_noise, {speedup} FROM {scan} WHERE timing_slot <> '' AND timing_start IS NOT NULL
        ORDER BY case_id, variant""").fetchall()
    if not timed:
        return None
    summary = TimingSummary()
    groups: dict[tuple[str, str], list[tuple]] = {}
    for row in timed:
        groups.setdefault((row[0], row[1]), []).append(row)
    for (case, variant), rows in groups.items():
        speedups = [r[7] for r in rows if r[7] is not None]
        noises = [r[6] for r in rows if r[6] is not None]
        summary.rows.append({"case": case, "variant": variant, "timed": len(rows),
                             "speedup": statistics.median(speedups) if speedups else None,
                             "noise": statistics.median(noises) if noises else None,
                             "noise_max": max(noises) if noises else None,
                             "wait_max_s": max(r[5] or 0.0 for r in rows),
                             "slots": sorted({r[2] for r in rows})})
    by_slot: dict[str, list[tuple[float, float]]] = {}
    for row in timed:
        by_slot.setdefault(row[2], []).append((row[3], row[4]))
    for slot, intervals in sorted(by_slot.items()):
        summary.slots.append(SlotUse(slot, len(intervals), sum(e - s for s, e in intervals),
                                     max(e for _, e in intervals) - min(s for s, _ in intervals),
                                     overlapping_pairs(intervals)))
    return summary


def timing_blocks(files: Sequence[Path | str]) -> list[tuple]:
    """The report's timing section (nothing for a night without timing steps)."""
    summary = timing_summary(files)
    if summary is None:
        return []

    def num(value: float | None, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    rows = [[f"{r['case']} · {r['variant']}", str(r["timed"]), num(r["speedup"], ".1f") + "x" * (r["speedup"] is not
            None), num(r["noise"], ".1%"), num(r["noise_max"], ".1%"), num(r["wait_max_s"], ".1f"),
             ", ".join(r["slots"])] for r in summary.rows]
    slot_lines = [f"{s.slot}: {s.steps} timing steps, {s.held_s:.1f}s held over {s.span_s:.1f}s "
                  f"({s.utilisation:.0%}), {s.overlaps} overlapping pairs" for s in summary.slots]
    return [("h2", "Timing (cases graded by speed)"),
            ("p", "Each timing step held one exclusive slot of the host's timing pool (a GPU card, or a reserved CPU "
                  "core its sandbox was pinned to). Speedup: median baseline time / median candidate time, both "
                  "measured in the same slot; timing noise: the spread (stdev / mean) of the per-repeat speedups. "
                  "Trials whose correctness failed are not timed."),
            ("table", ("case · arm", "timed", "speedup", "noise", "noise max", "wait max s", "slots"), rows),
            ("pre", slot_lines)]
