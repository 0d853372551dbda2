"""The analysis of runs whose harness changed or crashed, over small hand-made runs (rows + manifest.json):
A/A pairs need every pin equal, harness identity included; a broken arm's verdicts read "broken arm"; every
difference is the other arm minus the experiment's first variant."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from nightshift import results
from nightshift.analysis import analyse
from nightshift.analysis.broken import BROKEN_ARM_FRACTION
from nightshift.cli import main
from nightshift.errors import BROKEN_ARM_EXIT_CODE
from nightshift.experiment.config import AnalysisSettings

CASES = [f"c{i}" for i in range(8)]
HARNESS = {"kind": "python", "entrypoint": "listpatch:ListPatch", "source": "module", "settings": {}}


def write_run(folder: Path, run_id: str, outcomes: dict[str, list[str]], versions: dict[str, str],
              analysis: dict | None = None) -> Path:
    """One run: variant -> a status per case (both seeds alike), variant -> its harness version."""
    rows = [{"run_id": run_id, "trial_id": f"{run_id}-{v}-{c}-{s}", "case_id": c, "variant": v, "seed": s,
             "model_version": "sim-1", "status": status, "score": float(status == "resolved"),
             "reason": "harness raised TypeError: chat() missing 'tools'" if status == "agent_error" else ""}
            for v, statuses in outcomes.items() for c, status in zip(CASES, statuses, strict=True) for s in (1, 2)]
    run = folder / run_id
    run.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), run / "results.parquet")
    manifest = {"experiment": run_id.rsplit("-", 1)[0], "variants": {v: {"name": v} for v in outcomes},
                "models": {v: {"model": "sim", "version": "sim-1"} for v in outcomes},
                "harnesses": {v: {**HARNESS, "version": versions[v]} for v in outcomes},
                "suite_hash": "s", "cases": dict.fromkeys(CASES, "h"), "sandbox_identity": "id", "endpoint": "sim",
                "grader_version": "g", "sandbox_backend": "bubblewrap", "sandbox_image": "host", "sandbox_limits": {},
                "seeds": [1, 2], "code_version": "c", "python": "3.11", "packages": {}, "analysis": analysis or {}}
    (run / "manifest.json").write_text(json.dumps(manifest))
    return run


SOLVED = ["resolved"] * 6 + ["failed"] * 2
CRASHED = ["agent_error"] * 8


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    # reference first (the baseline), listpatch second, as a team's experiment lists them; names sort the other way
    before = write_run(tmp_path, "night-aaaaaaaa1111", {"reference": SOLVED, "listpatch": CRASHED},
                       {"reference": "v1", "listpatch": "sha256:00ad1c2a"})
    after = write_run(tmp_path, "night-bbbbbbbb2222", {"reference": SOLVED, "listpatch": SOLVED},
                      {"reference": "v1", "listpatch": "sha256:84993051"})
    return before, after


def test_a_changed_harness_is_no_aa_pair_and_is_named(runs) -> None:
    result = analyse([runs[1]], vs=runs[0])
    assert result.aa_pairs == [("reference@aaaaaaaa", "reference@bbbbbbbb")]
    [change] = result.harness_changes
    assert change.line() == ("listpatch: harness changed version sha256:00ad1c2a → sha256:84993051 "
                             "(listpatch@aaaaaaaa → listpatch@bbbbbbbb): this is the difference compared, not noise")
    across = next(c for c in result.headline() if c.variant == "listpatch@bbbbbbbb" and c.baseline.startswith("list"))
    assert across.harness_change == "version sha256:00ad1c2a → sha256:84993051"
    # the floor is the reference arm's real A/A pair (identical runs: 0), not listpatch's 0 → 75% jump
    assert across.noise_floor == pytest.approx(0.0) and across.floor_source in ("A/A runs", "seeds")


def test_the_same_harness_in_both_runs_is_an_aa_pair(tmp_path: Path) -> None:
    a = write_run(tmp_path, "night-aaaaaaaa1111", {"listpatch": SOLVED}, {"listpatch": "sha256:same"})
    b = write_run(tmp_path, "night-bbbbbbbb2222", {"listpatch": SOLVED}, {"listpatch": "sha256:same"})
    result = analyse([b], vs=a)
    assert result.aa_pairs == [("listpatch@aaaaaaaa", "listpatch@bbbbbbbb")] and result.harness_changes == []


def test_a_broken_arm_has_no_verdict_but_broken_arm(runs) -> None:
    result = analyse([runs[0]])
    [broken] = result.broken
    assert (broken.arm, broken.trials, broken.by_status["agent_error"]) == ("listpatch", 16, 16)
    assert broken.reason == "harness raised TypeError: chat() missing 'tools'" and broken.reason_trials == 16
    assert broken.example_name == "c0/listpatch/seed1"
    lines = result.broken_lines()
    assert lines[0].startswith("BROKEN ARM listpatch: 16 of 16 trials ended agent_error")
    assert f"nightshift view {runs[0]}" in lines[2] and "#trial=night-aaaaaaaa1111-listpatch-c0-1" in lines[2]
    [verdict] = result.headline()
    assert verdict.verdict == "broken arm" and verdict.line.endswith("→ broken arm (listpatch: 16 of 16 trials ended "
                                                                     "agent_error)")


def test_every_difference_is_the_other_arm_minus_the_first_variant(runs) -> None:
    [within] = analyse([runs[1]]).headline()  # reference sorts after listpatch, but the experiment lists it first
    assert (within.baseline, within.variant) == ("reference", "listpatch")
    frame = results.compare(runs[1])
    assert list(frame.loc[frame.metric == "pass_rate", "line"])[0].startswith("listpatch − reference = ")
    pairs = {(c.baseline, c.variant) for c in analyse([runs[1]], vs=runs[0]).headline()}
    assert pairs == {("reference@aaaaaaaa", "reference@bbbbbbbb"), ("listpatch@aaaaaaaa", "listpatch@bbbbbbbb"),
                     ("reference@bbbbbbbb", "listpatch@bbbbbbbb")}
    assert analyse([runs[1]], baseline="listpatch").headline()[0].baseline == "listpatch"  # --baseline still wins


def test_the_threshold_is_the_run_s_own_and_mostly_means_more_than(tmp_path: Path) -> None:
    half = ["agent_error"] * 4 + ["resolved"] * 4
    assert BROKEN_ARM_FRACTION == AnalysisSettings().broken_arm_fraction == 0.5
    at_default = write_run(tmp_path, "a-aaaaaaaa1111", {"ref": SOLVED, "mine": half}, {"ref": "1", "mine": "1"})
    assert analyse([at_default]).broken == []  # exactly half is not "mostly"
    strict = write_run(tmp_path, "b-aaaaaaaa1111", {"ref": SOLVED, "mine": half}, {"ref": "1", "mine": "1"},
                       analysis={"broken_arm_fraction": 0.25})
    assert [b.arm for b in analyse([strict]).broken] == ["mine"]


def test_compare_and_report_exit_5_on_a_broken_arm(runs, capsys, tmp_path: Path) -> None:
    assert BROKEN_ARM_EXIT_CODE == 5
    assert main(["compare", str(runs[0]), str(runs[1])]) == 5
    said = capsys.readouterr().out
    assert said.startswith("BROKEN ARM listpatch@aaaaaaaa: 16 of 16 trials ended agent_error")
    assert main(["compare", str(runs[1])]) == 0
    assert main(["report", str(runs[0]), "--out", str(tmp_path / "report")]) == 5
    page = (tmp_path / "report" / "report.html").read_text()
    body = page.split("<body>", 1)[1]
    assert body.index("Broken arms: not a result") < body.index("Verdicts (pass rate)")
    assert "harness raised TypeError" in body
