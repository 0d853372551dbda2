"""One call from Parquet files to everything a report shows: ``analyse(runs)`` returns an ``Analysis``.

Notebooks get the same numbers as DataFrames from ``nightshift.results``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from nightshift.analysis import noise
from nightshift.analysis.broken import VERDICT as BROKEN_VERDICT
from nightshift.analysis.broken import BrokenArm, broken_arms
from nightshift.analysis.flags import arm_flags, flag_lines
from nightshift.analysis.infra_bounds import infra_lines
from nightshift.analysis.paired import DETECT, Comparison, comparisons, floats
from nightshift.analysis.scores import case_table, clustered_scores, status_counts
from nightshift.analysis.source import AnalysisError, connect, one_row, parquet_paths
from nightshift.analysis.trust import trust_notes


@dataclass
class Analysis:
    """Everything computed for one report: scores, breakdowns, statuses, comparisons and noise."""

    info: dict
    scores: list[dict]
    by_domain: list[dict]
    by_split: list[dict]
    statuses: list[dict]
    comparisons: list[Comparison]
    arm_noise: list[dict] = field(default_factory=list)
    aa_pairs: list[tuple[str, str]] = field(default_factory=list)
    harness_changes: list[noise.HarnessChange] = field(default_factory=list)
    broken: list[BrokenArm] = field(default_factory=list)  # arms whose trials mostly crashed: not a result

    def broken_lines(self) -> list[str]:
        """What the run, compare and the report say first when an arm is broken (analysis/broken.py)."""
        return [line for arm in self.broken for line in arm.lines()]

    def headline(self, metric: str = "pass_rate") -> list[Comparison]:
        """The overall comparison of each pair on one metric: the verdict lines."""
        return [c for c in self.comparisons if c.metric == metric and c.scope == "all"]


def choose_pairs(arms: list[str], run_of: dict[str, str], variant_of: dict[str, str], baseline: str | None = None,
                 vs_run: str | None = None) -> list[tuple[str, str]]:
    """Which (baseline, variant) pairs to compare.

    With arms from several runs, each variant is compared with itself in the ``vs_run`` (or first) run;
    within the remaining run(s), every arm is compared with ``baseline`` (or the first arm).
    """
    if not arms:
        return []
    if baseline is not None and baseline not in arms:
        raise AnalysisError(f"--baseline {baseline!r} is not an arm of these runs; arms: {', '.join(arms)}")
    runs = sorted(set(run_of.values()))
    if len(runs) == 1 or all(a == variant_of[a] for a in arms):
        base = baseline or arms[0]
        return [(base, arm) for arm in arms if arm != base]
    old = vs_run if vs_run in runs else runs[0]
    old_arm = {variant_of[a]: a for a in arms if run_of[a] == old}
    pairs = [(old_arm[variant_of[a]], a) for a in arms if run_of[a] != old and variant_of[a] in old_arm]
    new_arms = [a for a in arms if run_of[a] != old]
    pivot = baseline if baseline in new_arms else (new_arms[0] if new_arms else None)
    pairs += [(pivot, arm) for arm in new_arms if pivot and arm != pivot and (pivot, arm) not in pairs]
    return pairs


def reused_lines(con) -> list[str]:
    """One line per (run, source run): trials answered from the trial cache, run by that earlier run."""
    found = con.execute("SELECT run_id, reused_from, count(*) FROM trials WHERE reused_from <> '' "
                        "GROUP BY ALL ORDER BY 1, 2").fetchall()
    return [f"{run}: {n} trial{'s' if n != 1 else ''} reused from run {source} (answered from the trial cache, no "
            f"model call; trajectories, grades and diffs from that run)"
            for run, source, n in found]


def analyse(runs: Sequence[str | Path], baseline: str | None = None, vs: str | Path | None = None,
            detect: float = DETECT, breakdowns: bool = True) -> Analysis:
    """Analyse run folders or Parquet files; ``vs`` is a run whose variants are the baselines."""
    files = parquet_paths([*([vs] if vs is not None else []), *runs])
    con, info = connect(files)
    info["untrusted"] = trust_notes(info["files"])
    info["notes"] += info["untrusted"]
    case_table(con)
    rows = con.execute("SELECT arm, any_value(run_id), any_value(variant) FROM trials GROUP BY arm").fetchall()
    run_of, variant_of = {a: r for a, r, _ in rows}, {a: v for a, _, v in rows}
    arms = sorted(run_of)
    vs_run = None
    if vs is not None:
        vs_run = one_row(con, "SELECT any_value(run_id) FROM read_parquet(?)", [str(files[0])])[0]
    if baseline is None:  # every difference reads "other − the experiment's first variant", as the run printed it
        baseline = _first_variant(files[1 if vs is not None else 0])
        baseline = baseline if any(variant_of[a] == baseline and run_of[a] != vs_run for a in arms) else None
    if baseline is not None and baseline not in arms:
        matches = [a for a in arms if variant_of[a] == baseline and run_of[a] != vs_run]
        baseline = matches[0] if matches else baseline
    pairs = choose_pairs(arms, run_of, variant_of, baseline, vs_run)
    aa = noise.aa_run_pairs(con, info["files"])
    comps = comparisons(con, pairs, info["files"], detect, breakdowns, aa=aa)
    changes, broken = noise.harness_changes(con, info["files"]), broken_arms(con, info["files"])
    _mark(comps, changes, broken)
    arm_noise = []
    for arm in arms:
        n, v = (floats(x) for x in con.execute(
            "SELECT n, v_pass_rate FROM case_stats WHERE arm = ?", [arm]).fetchnumpy().values())
        arm_noise.append({"arm": arm, "cases": int(n.size), "seeds": float(n.mean()) if n.size else 0.0,
                          "floor": noise.self_floor(v, n), "unmeasured": noise.why_unmeasured(n, n)})
    info["reused"] = reused_lines(con)
    flags = arm_flags(con)
    info["flags"] = flag_lines(flags, pairs)  # per-arm counts, then whether a difference is mostly flagged trials
    scores = clustered_scores(con)
    for row in scores:  # flag counts beside each arm's scores (compare, the report, nightshift.results)
        row.update({k: v for k, v in flags[row["arm"]].as_dict().items() if k not in ("arm", "trials")}
                   if row["arm"] in flags else {})
    info["infra"] = infra_lines(con, [c for c in comps if c.metric == "pass_rate" and c.scope == "all"])
    return Analysis(info, scores, clustered_scores(con, ["domain"]) if breakdowns else [],
                    clustered_scores(con, ["split"]) if breakdowns else [], status_counts(con), comps, arm_noise, aa,
                    changes, broken)


def _first_variant(parquet: Path) -> str | None:
    """The first variant of the experiment that wrote this run (its manifest), the baseline of its comparisons."""
    try:
        return next(iter(json.loads(parquet.with_name("manifest.json").read_text()).get("variants", {})), None)
    except (OSError, ValueError, AttributeError):
        return None


def _mark(comps: list[Comparison], changes: list[noise.HarnessChange], broken: list[BrokenArm]) -> None:
    """A pair across a harness change says so; a pair with a broken arm has no verdict but "broken arm"."""
    changed = {frozenset((c.before, c.after)): c for c in changes}
    broken_by_arm = {b.arm: b for b in broken}
    for comp in comps:
        change = changed.get(frozenset((comp.baseline, comp.variant)))
        if change:
            comp.harness_change = "; ".join(f"{d.field.split('.', 1)[-1]} {d.a} → {d.b}" for d in change.changes)
        hit = [broken_by_arm[a] for a in (comp.baseline, comp.variant) if a in broken_by_arm]
        if hit:
            comp.verdict = BROKEN_VERDICT
            comp.line = (comp.line.rsplit(" → ", 1)[0] + f" → {BROKEN_VERDICT} ("
                         + "; ".join(b.summary() for b in hit) + ")")
        if change:
            comp.line += f"; compares a harness change ({comp.harness_change}), not noise"

