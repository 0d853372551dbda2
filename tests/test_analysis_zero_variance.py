"""Two arms that behave identically (a setting the model ignores) must not be called sensitive to 0 pts."""

from pathlib import Path

from nightshift.analysis import analyse
from nightshift.analysis.tables import power_lines
from nightshift.models import TrialResult
from nightshift.tasks.results import write_parquet


def test_zero_variance_prints_no_minimum_detectable_difference(tmp_path: Path) -> None:
    rows = [TrialResult(trial_id=f"{v}-{c}-{s}", run_id="r", case_id=f"c{c}", suite="s", domain="d", split="public",
                        variant=v, model="m", model_version="m-1", seed=s, status="resolved" if c % 2 else "failed",
                        score=float(c % 2)) for v in ("cold", "warm") for c in range(8) for s in (1, 2)]
    parquet = write_parquet(rows, tmp_path / "r" / "results.parquet")
    lines = power_lines(analyse([parquet], baseline="cold"))
    assert lines and all("no minimum detectable difference can be estimated" in line for line in lines)
    assert not any("is 0.0 pts" in line for line in lines)
