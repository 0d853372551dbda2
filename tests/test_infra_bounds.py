"""Infra exclusion made visible: the infra share per arm and per case, and bounds on the verdict as if
every excluded trial had failed or passed; 'not trustworthy' when the bounds straddle the verdict."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from nightshift.analysis import analyse
from nightshift.cli import main
from tests.test_analysis_scores import rows_table, trial


def night(tmp_path: Path, b_infra_cases: int) -> Path:
    """200 cases × 2 seeds; B passes more often, but B's long cases (the last ones) end in infra errors."""
    rows = []
    for c in range(200):
        for seed in range(2):
            rows.append(trial(f"c{c}", "A", seed, 0 if c % 2 else 1))
            if c >= 200 - b_infra_cases:
                rows.append(trial(f"c{c}", "B", seed, 0, "infra_error"))
            else:
                rows.append(trial(f"c{c}", "B", seed, 1 if c % 3 else 0))
    path = tmp_path / f"infra-{b_infra_cases}.parquet"
    pq.write_table(rows_table(rows), path)
    return path


def test_uneven_infra_errors_bound_the_verdict(tmp_path: Path, capsys) -> None:
    result = analyse([night(tmp_path, 60)], baseline="A")
    verdict = result.headline()[0]
    assert verdict.verdict == "B better"  # with the infra errors excluded
    lines = result.info["infra"]
    assert lines[0] == "infra errors excluded: A 0/400 (0.0%), B 120/400 (30.0%)"
    assert "their share differs between the two" in lines[1]
    # A passes 200 of 400; B 186 of its 280 scored: 186/400 − 50% if all excluded failed, 306/400 − 50% if passed
    assert "bounds -3.5 pts" in lines[1] and "+26.5 pts the other way round" in lines[1]
    assert "the verdict 'B better' is not trustworthy: the bounds straddle it" in lines[1]
    assert lines[2].startswith("infra errors by case: c140 (A 0/2, B 2/2); c141")
    assert main(["compare", str(tmp_path / "infra-60.parquet"), "--baseline", "A"]) == 0
    assert "not trustworthy" in capsys.readouterr().out


def test_no_infra_errors_no_lines(tmp_path: Path) -> None:
    assert analyse([night(tmp_path, 0)], baseline="A").info["infra"] == []
