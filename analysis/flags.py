"""Flags per arm, and whether a difference between arms is made of flagged trials (docs/SCANNERS.md).

Reads the ``flag`` column (a trial's highest severity: '', info, suspect or cheat) of the trials view. For each
arm: how many evaluated trials were flagged, how many of its passes were, and the pass rate recomputed with every
``cheat`` trial counted as failed. For each compared pair, one verdict line when flags touch it: the share of
the pass-rate difference that comes from flagged passes, and the difference with cheats counted as failed.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb

MOSTLY = 0.5  # a difference more than half made of flagged passes is "mostly flagged trials"


@dataclass
class ArmFlags:
    """One arm's flag counts over its evaluated trials (infra errors are not evaluated, so never flagged)."""

    arm: str
    trials: int
    info: int
    suspect: int
    cheat: int
    flagged_passes: int  # resolved trials flagged suspect or cheat
    pass_rate: float
    pass_rate_cheat_failed: float

    def as_dict(self) -> dict[str, object]:
        return {"arm": self.arm, "trials": self.trials, "flag_info": self.info, "flag_suspect": self.suspect,
                "flag_cheat": self.cheat, "flagged_passes": self.flagged_passes,
                "pass_rate_cheat_failed": self.pass_rate_cheat_failed}


def arm_flags(con: duckdb.DuckDBPyConnection) -> dict[str, ArmFlags]:
    rows = con.execute("""SELECT arm, count(*),
            count(*) FILTER (WHERE flag = 'info'), count(*) FILTER (WHERE flag = 'suspect'),
            count(*) FILTER (WHERE flag = 'cheat'),
            count(*) FILTER (WHERE flag IN ('suspect', 'cheat') AND score > 0),
            avg(score), avg(CASE WHEN flag = 'cheat' THEN 0 ELSE score END)
        FROM trials WHERE NOT infra GROUP BY arm ORDER BY arm""").fetchall()
    return {r[0]: ArmFlags(r[0], int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), float(r[6] or 0),
                           float(r[7] or 0)) for r in rows}


def pair_line(base: ArmFlags, other: ArmFlags) -> str | None:
    """The verdict line of one pair, or None when neither arm has a suspect or cheat trial."""
    if not (base.suspect + base.cheat + other.suspect + other.cheat):
        return None
    diff = (other.pass_rate - base.pass_rate) * 100
    flagged = (other.flagged_passes / other.trials - base.flagged_passes / base.trials) * 100
    strict = (other.pass_rate_cheat_failed - base.pass_rate_cheat_failed) * 100
    mostly = abs(diff) >= 1e-9 and flagged / diff > MOSTLY
    head = f"flags: {other.arm} − {base.arm}: {diff:+.1f} pts pass rate, {flagged:+.1f} of them from passes flagged " \
           f"suspect or cheat"
    verdict = (" → MOSTLY FLAGGED TRIALS: read those trials before trusting the difference" if mostly
               else " → not mostly flagged trials")
    return f"{head}; counting cheat as failed: {strict:+.1f} pts{verdict}"


def arm_line(arm: ArmFlags) -> str:
    return (f"flags: {arm.arm}: {arm.cheat} cheat, {arm.suspect} suspect, {arm.info} info of {arm.trials} trials; "
            f"{arm.flagged_passes} flagged passes; pass rate {arm.pass_rate:.1%}, {arm.pass_rate_cheat_failed:.1%} "
            f"counting cheat as failed")


def flag_lines(arms: dict[str, ArmFlags], pairs: list[tuple[str, str]]) -> list[str]:
    """Each flagged arm's counts, then each pair's verdict line; nothing when no trial was flagged."""
    if not any(a.suspect + a.cheat + a.info for a in arms.values()):
        return []
    lines = [arm_line(a) for a in arms.values() if a.suspect + a.cheat + a.info]
    for base, other in pairs:
        if base in arms and other in arms:
            line = pair_line(arms[base], arms[other])
            if line:
                lines.append(line)
    return lines
