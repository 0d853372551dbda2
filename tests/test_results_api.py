"""nightshift.results on real runs: the DataFrames a notebook gets carry the numbers `nightshift compare`
prints, and timestamps are real Parquet timestamps (old runs with text timestamps still load)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nightshift import results
from nightshift.analysis import analyse
from nightshift.cli import main
from nightshift.flows.nightly_eval import nightly_eval

CASES = ["py-bugfix-slugify", "sh-csv-column-sum", "alg-roman-numerals"]


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory, prefect_server) -> tuple[Path, Path]:
    """A real night, then the same night under another experiment name (its trials come from the cache)."""
    tmp = tmp_path_factory.mktemp("results")
    text = (f"name: NAME\nsuites: [builtin]\ncases: {CASES}\nvariants:\n  - {{name: strong, model: sim-strong}}\n"
            "  - {name: weak, model: sim-weak}\nseeds: [1, 2]\nconcurrency: 3\n"
            "model: {simulator: {latency_ms: 5}}\noutput_dir: out\n")
    dirs = []
    for name in ("first", "again"):
        (tmp / f"{name}.yaml").write_text(text.replace("NAME", name))
        dirs.append(Path(nightly_eval(experiment_file=str(tmp / f"{name}.yaml"))["run_dir"]))
    return dirs[0], dirs[1]


def cli_lines(capsys: pytest.CaptureFixture, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_load_gives_one_row_per_trial_with_utc_timestamps(two_runs: tuple[Path, Path]) -> None:
    first, again = two_runs
    schema = pq.read_schema(first / "results.parquet")
    assert schema.field("started_at").type == pa.timestamp("ms", tz="UTC")
    trials = results.load(first)
    assert len(trials) == len(CASES) * 2 * 2 == trials["trial_id"].nunique()
    assert str(trials["started_at"].dt.tz) == "UTC" and (trials["finished_at"] >= trials["started_at"]).all()
    both = results.load(first, again / "results.parquet")
    assert len(both) == 2 * len(trials) and set(both["run_id"]) == {first.name, again.name}


def test_an_old_run_with_text_timestamps_loads_to_the_same_instants(two_runs: tuple[Path, Path],
                                                                      tmp_path: Path) -> None:
    first, _ = two_runs
    table = pq.read_table(first / "results.parquet")
    for name in ("started_at", "finished_at"):  # as runs before this change stored them
        text = pa.array([t.isoformat(timespec="milliseconds") for t in table.column(name).to_pylist()])
        table = table.set_column(table.schema.get_field_index(name), name, text)
    pq.write_table(table, tmp_path / "old.parquet")
    old, new = results.load(tmp_path / "old.parquet"), results.load(first)
    pd.testing.assert_series_equal(old["started_at"], new["started_at"], check_dtype=False)
    mixed = results.load(tmp_path / "old.parquet", first)  # text and timestamps in one frame
    assert mixed["started_at"].notna().all() and str(mixed["started_at"].dt.tz) == "UTC"


def test_scores_are_the_analysis_scores(two_runs: tuple[Path, Path]) -> None:
    first, _ = two_runs
    frame = results.scores(first)
    expected = pd.DataFrame(analyse([first], breakdowns=False).scores)
    pd.testing.assert_frame_equal(frame, expected)
    strong = frame.set_index("arm").loc["strong"]
    trials = results.load(first)
    ours = trials[(trials.variant == "strong") & (trials.status != "infra_error")]
    assert strong["pass_rate"] == pytest.approx((ours.status == "resolved").mean())


def test_compare_within_a_run_matches_the_cli(two_runs: tuple[Path, Path], capsys) -> None:
    first, _ = two_runs
    frame = results.compare(first)
    printed = cli_lines(capsys, "compare", str(first))
    headline = frame[frame.metric == "pass_rate"]
    assert list(headline.baseline) == ["strong"] and list(headline.variant) == ["weak"]
    for _, row in headline.iterrows():
        assert row["line"] in printed  # the verdict line carries the diff, the interval, p and the verdict
        assert f"{row['diff'] * 100:+.1f}".lstrip("+") in row["line"]
    assert frame.attrs["scores"]["arm"].tolist() == ["strong", "weak"]


def test_compare_of_two_runs_matches_the_cli(two_runs: tuple[Path, Path], capsys) -> None:
    first, again = two_runs
    frame = results.compare(first, again)
    printed = cli_lines(capsys, "compare", str(first), str(again))
    pairs = set(zip(frame.baseline, frame.variant, strict=True))
    assert any(b.startswith("strong@") and v.startswith("strong@") for b, v in pairs)  # each variant with itself
    for line in frame[frame.metric == "pass_rate"]["line"]:
        assert line in printed
    same = frame[frame.baseline.str.startswith("strong@") & frame.variant.str.startswith("strong@")]
    assert len(same) > 0 and (same["diff"] == 0).all()  # the same trials (cache hits): no difference
