"""`nightshift report` and `nightshift compare` on generated runs: files written, plots embedded, verdicts
printed; a run compared with an earlier one pairs each variant with itself."""

from __future__ import annotations

import base64
import re

import pyarrow.parquet as pq
import pytest

from nightshift.analysis.simulate import simulate_trials
from nightshift.cli import main
from nightshift.experiment.manifest import RunManifest


def manifest(run: str) -> RunManifest:
    """Two nights with identical pins: only the variants' behaviour differs, so they may be compared."""
    return RunManifest(experiment=run, variants={}, models={}, endpoint="simulator", sandbox_backend="bubblewrap",
                       sandbox_image="host", sandbox_identity="rootfs:x", sandbox_limits={}, suite_hash="s",
                       cases={}, seeds=[1, 2, 3], grader_version="g", code_version="c", python="3.11",
                       packages={})


@pytest.fixture
def two_runs(tmp_path):
    for run, rates in (("night-1", {"A": 0.5, "B": 0.6}), ("night-2", {"A": 0.5, "B": 0.7})):
        (tmp_path / run).mkdir()
        pq.write_table(simulate_trials(120, 3, rates, rng_seed=int(rates["B"] * 10), run_id=run),
                       tmp_path / run / "results.parquet")
        manifest(run).write(tmp_path / run / "manifest.json")
    return tmp_path / "night-1", tmp_path / "night-2"


def test_report_writes_markdown_and_self_contained_html(two_runs, capsys):
    run = two_runs[0]
    assert main(["report", str(run)]) == 0
    out = capsys.readouterr().out
    assert re.search(r"B − A = \+\d+\.\d pts \[.*\], p .*, noise floor ±\d+\.\d → B better", out)
    page = (run / "report.html").read_text()
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(images) == 6  # scores, forest, by domain, by split, duration, tokens
    assert all(base64.b64decode(img).startswith(b"\x89PNG") for img in images)
    assert "src='http" not in page and "<script" not in page  # nothing fetched: opens offline
    md = (run / "report.md").read_text()
    for heading in ("Verdicts (pass rate)", "Scores", "How trials ended", "Comparisons", "Noise floor", "Power",
                    "By domain", "By split", "Distributions"):
        assert f"## {heading}" in md
    assert (run / "report-plots" / "forest.png").is_file()


def test_report_vs_an_earlier_run_pairs_each_variant_with_itself(two_runs, tmp_path, capsys):
    old, new = two_runs
    assert main(["report", str(new), "--vs", str(old), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "A@night-2 − A@night-1" in out and "B@night-2 − B@night-1" in out
    assert "B@night-2 − A@night-2" in out


def test_compare_prints_tables_verdicts_noise_and_power(two_runs, capsys):
    assert main(["compare", str(two_runs[1]), "--baseline", "A", "--detect", "5"]) == 0
    out = capsys.readouterr().out
    assert "B − A = " in out and "→ B better" in out
    assert "A/A over seeds" in out
    assert "to detect 5.0 pts" in out


def test_compare_names_a_missing_run(tmp_path, capsys):
    assert main(["compare", str(tmp_path / "nope")]) == 2
    assert "pass a run folder or its" in " ".join(capsys.readouterr().out.split())


def test_compare_refuses_runs_whose_pins_differ_and_allow_diff_overrides(two_runs, capsys):
    first, second = two_runs
    changed = manifest("night-2").model_copy(update={"seeds": [7, 8, 9], "sandbox_identity": "rootfs:y"})
    changed.write(second / "manifest.json")
    assert main(["compare", str(first), str(second)]) == 2
    out = capsys.readouterr().out
    assert "not comparable" in out and "seeds" in out and "sandbox_identity" in out
    assert main(["compare", str(first), str(second), "--allow-diff", "seeds"]) == 2
    assert main(["compare", str(first), str(second), "--allow-diff", "seeds", "--allow-diff", "sandbox_identity"]) == 0
    assert "seeds allowed by --allow-diff" in capsys.readouterr().out
    assert main(["report", str(second), "--vs", str(first), "--out", str(second.parent / "r"),
                 "--allow-diff", "seeds", "--allow-diff", "sandbox_identity"]) == 0
    assert "seeds allowed by --allow-diff" in (second.parent / "r" / "report.md").read_text()

