"""The terminal comparison: its differences table says the unit its rows are in."""

from __future__ import annotations

from rich.console import Console

from nightshift.analysis.tables import print_comparison


def _diff(metric: str, unit: str, diff: float) -> dict:
    return {"variant": "b", "baseline": "a", "metric": metric, "unit": unit, "scope": "all", "cases": 4,
            "diff": diff, "ci_low": diff - 0.1, "ci_high": diff + 0.1, "p": 0.5, "noise_floor": 0.05,
            "mdd": 0.2, "verdict": "no real difference"}


def _printed(diffs: list[dict]) -> str:
    console = Console(record=True, width=200)
    print_comparison([], diffs, console)
    return console.export_text()


def test_a_fraction_only_table_is_in_points() -> None:
    out = _printed([_diff("pass_rate", "fraction", 0.1)])
    assert "Paired differences over shared cases (points)" in out and "+10.0" in out


def test_a_metric_in_its_own_unit_is_not_called_points() -> None:
    out = _printed([_diff("pass_rate", "fraction", 0.1), _diff("speedup", "x", 1.5)])
    assert "(points)" not in out and "(points, or the metric's own unit)" in out
    assert "diff (pts)" not in out  # the column too: its speedup row reads +1.50 x, not points


def test_long_arm_names_are_never_cut_at_140_columns() -> None:
    # two runs of a harness edit: the arms carry their run's hash, and every score column is filled
    arms = ["listpatch@00ad1c2a-long-name", "reference-with-a-long-name@84993051"]
    scores = [{"variant": a, "trials": 6, "infra_errors": 0, "cases": 3, "pass_rate": 0.5, "pass_rate_ci": [0.1, 0.9],
               "progress": 0.5, "public_pass": 0.5, "hidden_pass": 0.5, "tokens": 1234.0, "cost": 0.01,
               "duration_s": 2.5} for a in arms]
    diff = _diff("pass_rate", "fraction", 0.1) | {"variant": arms[0], "baseline": arms[1]}
    console = Console(record=True, width=140)
    print_comparison(scores, [diff], console)
    out = console.export_text()
    assert "…" not in out, out
    lines = out.splitlines()
    for arm in arms:  # whole on one line of the scores table
        assert any(arm in line for line in lines), out
    joined = "".join(line.strip("│┃ ") for line in lines)  # the comparison cell may wrap, its letters all there
    assert all(arm.replace("-", "") in joined.replace("-", "").replace(" ", "") for arm in arms)
