"""Results for notebooks: a run's trials, its scores and the comparison of runs, as pandas DataFrames.

    from nightshift import results
    trials = results.load("runs/default-1a2b3c4d5e6f")          # one row per trial; several runs: load(a, b)
    results.scores("runs/default-1a2b3c4d5e6f")                  # pass rate / progress per arm, 95% CIs
    results.compare("runs/default-1a2b3c4d5e6f", "runs/default-9f8e7d6c5b4a")   # what `nightshift compare` prints
    results.flags("runs/default-1a2b3c4d5e6f")                   # every scanner flag, one row each

Owns no arithmetic: every number comes from nightshift.analysis (the DuckDB view over the Parquet files)
and the manifests' comparability guard, the same calls `nightshift compare` makes, so a notebook and the
command never disagree. A run is its folder or its results.parquet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path

import pandas as pd

from nightshift.analysis import Analysis, analyse
from nightshift.analysis.paired import DETECT, as_dicts
from nightshift.analysis.source import connect, parquet_paths
from nightshift.experiment.comparability import guard_runs
from nightshift.tasks.results import TIMESTAMPS

Run = str | Path


def load(*runs: Run) -> pd.DataFrame:
    """Every trial row of these runs (folders or Parquet files), ``started_at``/``finished_at`` as UTC
    timestamps also for runs written when they were stored as text; columns a run lacks are missing values."""
    if not runs:
        raise ValueError("load() needs at least one run folder or results.parquet")
    files = parquet_paths(runs)
    con, _ = connect(files)  # checks the files are result Parquet, naming the one that is not
    scan = ", ".join("'" + f.as_posix().replace("'", "''") + "'" for f in files)
    frame = con.execute(f"SELECT * FROM read_parquet([{scan}], union_by_name = true)").df()
    for name in TIMESTAMPS:
        if name in frame:
            # an old run's text and a new run's timestamps union to text; both parse to the same instant
            frame[name] = pd.to_datetime(frame[name].replace("", None), utc=True, format="ISO8601")
    return frame


def scores(*runs: Run, baseline: str | None = None) -> pd.DataFrame:
    """One row per arm (a variant, or variant@run with several runs): trials, pass rate and progress with
    95% intervals clustered by case, tokens, cost, durations — the table `nightshift compare` prints."""
    return pd.DataFrame(analyse(list(runs), baseline=baseline, breakdowns=False).scores)


def flags(*runs: Run) -> pd.DataFrame:
    """One row per flag of these runs: the trial (run, arm variant, case, seed, status) and the flag's scanner, name,
    severity, step, path, line and explanation (docs/SCANNERS.md); per-arm counts are in ``scores()``
    (flag_cheat, flag_suspect, flag_info, flagged_passes, pass_rate_cheat_failed)."""
    trials = load(*runs)
    columns = ["run_id", "variant", "case_id", "seed", "trial_id", "status", "scanner", "name", "severity", "step",
               "path", "line", "explanation"]
    if "flags" not in trials:
        return pd.DataFrame(columns=columns)
    rows = [{**{k: row[k] for k in columns[:6]}, **flag} for _, row in trials.iterrows()
            for flag in (row["flags"] if row["flags"] is not None else [])]
    return pd.DataFrame(rows, columns=columns)


def compare_runs(runs: Sequence[Run], baseline: str | None = None, allow_diff: Iterable[str] = (),
                 detect_pts: float = DETECT * 100) -> Analysis:
    """The analysis `nightshift compare RUN...` prints: refuses runs whose pins differ (beyond
    ``allow_diff``), then compares each variant with itself in the first run (with one run: every
    variant with ``baseline``). Raises NotComparable / AnalysisError with the reason."""

    runs = list(runs)
    pin_notes = guard_runs(runs, set(allow_diff))
    result = analyse(runs[1:] or runs, baseline=baseline, vs=runs[0] if runs[1:] else None,
                     detect=detect_pts / 100, breakdowns=False)
    result.info["notes"] += pin_notes
    return result


def compare(a: Run, b: Run | None = None, baseline: str | None = None, allow_diff: Iterable[str] = (),
            detect_pts: float = DETECT * 100) -> pd.DataFrame:
    """Paired differences over shared cases, one row per (pair, metric): diff in points, 95% CI, p, noise
    floor, minimum detectable difference and verdict. ``b`` is compared with the earlier run ``a``; without
    ``b``, the variants of ``a`` with ``baseline``. ``.attrs`` holds ``scores`` (a DataFrame), ``notes`` and
    ``untrusted`` (the lines of a night whose infra errors crossed its threshold: read those first) and ``broken``
    (one dict per broken arm: its trials mostly ended agent_error or infra_error; its verdicts read "broken arm") and
    ``flags`` (the scanners' lines: per-arm counts, and whether a difference is mostly flagged trials)."""
    result = compare_runs([a] if b is None else [a, b], baseline, allow_diff, detect_pts)
    frame = pd.DataFrame(as_dicts([c for c in result.comparisons if c.scope == "all"]))
    frame.attrs.update(scores=pd.DataFrame(result.scores), notes=list(result.info["notes"]),
                       flags=list(result.info.get("flags", [])),
                       untrusted=list(result.info.get("untrusted", [])),
                       broken=[asdict(b) for b in result.broken])
    return frame
