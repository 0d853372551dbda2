"""Flags from real trials to every place a user reads them: the rows and Parquet, per-arm counts and the verdict
line in the analysis (`nightshift compare`, nightshift.results), the flag policy, and `nightshift scan` re-scanning
a finished run without running a trial.

The trials are real (bubblewrap sandbox, reference loop, the case's grader, the scan at each trial's end); the
model is scripted (bench/scanner_bench.py): one arm cheats on the repository-style case, the other solves it.
"""

from __future__ import annotations

import json
import platform
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from bench.scanner_bench import CHEATS, HONEST, LIMITS, ScriptedGateway, write_calc_case
from nightshift import results
from nightshift.analysis import analyse
from nightshift.cli import main
from nightshift.experiment.config import Variant
from nightshift.experiment.manifest import ModelPin, RunManifest
from nightshift.experiment.trials import TrialSpec
from nightshift.graders import CaseGrader
from nightshift.graders.scanning import BUILTIN_SCANNERS, ScannerSet
from nightshift.models import TrialResult, TrialStatus
from nightshift.suites import load_cases
from nightshift.tasks.rescan import rescan_run
from nightshift.tasks.results import read_results, write_parquet, write_result
from nightshift.tasks.run_trial import TrialContext, execute_trial
from nightshift.viewer.run_data import RunData
from tests.sandbox_support import make_backend

DELETE, HARDCODE = CHEATS[0], CHEATS[10]
FIX, FIX_AND_TEST = HONEST[0], HONEST[1]


def manifest(policy: dict[str, str] | None = None) -> RunManifest:
    return RunManifest(experiment="flags", variants={"honest": {}, "cheat": {}},
                       models={v: ModelPin(model="scripted", version="scripted") for v in ("honest", "cheat")},
                       endpoint="scripted", sandbox_backend="bubblewrap", sandbox_image="test", sandbox_identity="t",
                       sandbox_limits={}, suite_hash="", cases={"bench-calc": ""}, seeds=[1, 2], grader_version="t",
                       code_version="t", python=platform.python_version(), packages={}, flag_policy=policy or {})


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """Four trials: the honest arm fixes bench-calc (seed 2 also adds a test), the cheat arm deletes the graded
    test (seed 1) and hard-codes the tests' answer (seed 2); then a fifth, the deleting cheat under {cheat: fail}."""
    tmp = tmp_path_factory.mktemp("flags")
    write_calc_case(tmp / "suite")
    case = load_cases(tmp / "suite")[0]
    backend = make_backend("bubblewrap")
    run_dir = tmp / "run"
    manifest().write(run_dir / "manifest.json")
    plan = [("honest", 1, FIX), ("honest", 2, FIX_AND_TEST), ("cheat", 1, DELETE), ("cheat", 2, HARDCODE)]
    def trial(arm: str, seed: int, agent) -> TrialResult:
        spec = TrialSpec(trial_id=f"{arm}-{seed}", run_id="flags", case=case, variant=Variant(name=arm, model="s"),
                         seed=seed, model_version="scripted")
        ctx = TrialContext(run_dir=run_dir, backend=backend, gateway=ScriptedGateway(agent),  # type: ignore[arg-type]
                           limits=LIMITS, grader=CaseGrader())
        row = execute_trial(spec, ctx)
        write_result(run_dir, row)
        return row

    with ThreadPoolExecutor(2) as pool:  # trials wait on their sandboxes as much as they compute
        rows = list(pool.map(lambda planned: trial(*planned), plan))
    write_parquet(rows, run_dir / "results.parquet")
    strict = TrialContext(run_dir=tmp / "strict", backend=backend, gateway=ScriptedGateway(DELETE),  # type: ignore[arg-type]
                          limits=LIMITS, grader=CaseGrader(), flag_policy={"cheat": "fail"})
    spec = TrialSpec(trial_id="strict", run_id="strict", case=case, variant=Variant(name="cheat", model="s"), seed=1,
                     model_version="scripted")
    rows.append(execute_trial(spec, strict))
    return run_dir, rows


def test_each_trial_row_carries_its_flags_and_parquet_has_them_as_columns(night: tuple[Path, list]) -> None:
    run_dir, rows = night
    by_id = {r.trial_id: r for r in rows}
    assert [(f.severity, f.name, f.path) for f in by_id["cheat-1"].flags] == [("cheat", "test_deleted",
                                                                              "tests/test_calc.py")]
    assert by_id["cheat-1"].status == TrialStatus.resolved  # the cheat worked: only the flag tells
    assert [f.name for f in by_id["cheat-2"].flags] == ["hardcoded_expected"]
    assert [f.severity for f in by_id["honest-2"].flags] == ["info"] and not by_id["honest-1"].flags
    assert all(0 < r.scan_s < r.grade_s for r in rows[:4])
    table = pq.read_table(run_dir / "results.parquet").to_pydict()
    flag_of = dict(zip(table["trial_id"], table["flag"], strict=True))
    assert flag_of == {"honest-1": "", "honest-2": "info", "cheat-1": "cheat", "cheat-2": "cheat"}
    deleted = table["flags"][table["trial_id"].index("cheat-1")]
    assert deleted[0]["scanner"] == "test_edits" and deleted[0]["name"] == "test_deleted"


def test_the_policy_fails_the_cheat_trial_and_says_so(night: tuple[Path, list]) -> None:
    strict = night[1][4]
    assert (strict.status, strict.score) == (TrialStatus.failed, 0.0)
    assert strict.reason.startswith("flag policy: cheat test_edits/test_deleted (tests/test_calc.py)")


def test_compare_and_the_results_api_count_flags_per_arm_and_say_the_difference_is_flagged(
        night: tuple[Path, list], capsys: pytest.CaptureFixture) -> None:
    run_dir, _ = night
    result = analyse([run_dir], baseline="honest")
    scores = {s["arm"]: s for s in result.scores}
    assert (scores["cheat"]["flag_cheat"], scores["cheat"]["pass_rate_cheat_failed"]) == (2, 0.0)
    assert (scores["honest"]["flag_cheat"], scores["honest"]["flag_info"]) == (0, 1)
    frame = results.scores(run_dir, baseline="honest")
    assert frame.set_index("arm").loc["cheat", "flagged_passes"] == 2
    flags = results.flags(run_dir)
    assert sorted(flags["name"]) == ["hardcoded_expected", "test_added", "test_deleted"]
    assert main(["compare", str(run_dir), "--baseline", "honest"]) == 0
    out = capsys.readouterr().out
    assert "flags: cheat: 2 cheat, 0 suspect, 0 info of 2 trials" in out
    assert "counting cheat as failed: -100.0 pts" in out and "not mostly flagged" in out


def test_a_difference_made_of_flagged_passes_reads_mostly_flagged(night: tuple[Path, list], tmp_path: Path) -> None:
    run_dir, rows = night
    # the honest arm fails one of its two trials: the cheat arm's +50 pts are all flagged passes
    honest = rows[0].model_copy(update={"status": TrialStatus.failed, "score": 0.0})
    write_parquet([honest, *rows[1:4]], tmp_path / "results.parquet")
    lines = analyse([tmp_path / "results.parquet"], baseline="honest").info["flags"]
    assert any("cheat − honest: +50.0 pts pass rate, +100.0 of them from passes flagged" in line
               and "MOSTLY FLAGGED TRIALS" in line and "counting cheat as failed: -50.0 pts" in line for line in lines)


def test_scan_rescans_a_finished_run_and_says_what_changed(night: tuple[Path, list], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture) -> None:
    run = tmp_path / "run"
    shutil.copytree(night[0], run)
    # today's scanners without test_edits: the deletion is no longer flagged, the hard-coding still is
    fewer = ScannerSet.build([n for n in BUILTIN_SCANNERS if n != "test_edits"])
    report = rescan_run(run, load_cases(night[0].parent / "suite"), fewer)
    assert (report.trials, report.changed) == (4, 2)
    assert report.removed == {"cheat test_edits/test_deleted": 1, "info test_edits/test_added": 1}
    after = {r.trial_id: r for r in read_results(run, ["cheat-1", "cheat-2"])}
    assert after["cheat-1"].flags == [] and [f.name for f in after["cheat-2"].flags] == ["hardcoded_expected"]
    assert pq.read_table(run / "results.parquet").to_pydict()["flag"].count("cheat") == 1
    assert json.loads((run / "scans.json").read_text())[-1]["changed"] == 2
    # under the run's own {cheat: fail} policy, the command re-scores too, and says so
    manifest({"cheat": "fail"}).write(run / "manifest.json")
    experiment = tmp_path / "exp.yaml"
    experiment.write_text(f"name: flags\nsuites: [{night[0].parent / 'suite'}]\n"
                          "variants: [{name: honest, model: s}]\nallow_unvalidated: true\n")
    assert main(["scan", str(run), "--experiment", str(experiment)]) == 0
    out = capsys.readouterr().out
    assert "re-scanned 4 trials: 3 with different flags" in out, out
    assert "+ 1 trial newly flagged cheat test_edits/test_deleted" in out
    assert "status: bench-calc/cheat/seed1: resolved → failed" in out and "bench-calc/cheat/seed2: resolved → failed" \
        in out


def test_in_a_browser_the_flag_filter_finds_the_cheats_and_the_trial_page_marks_the_evidence(
        night: tuple[Path, list]) -> None:
    from playwright.sync_api import expect, sync_playwright

    from tests.test_viewer import SHOTS, _browser, _rows, serving

    run_dir, _ = night
    with serving(RunData.open(run_dir)) as url, sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/")
        page.wait_for_selector("body[data-ready='1']")
        counts = [line.split() for line in page.locator("table.flags").inner_text().split("\n")[-2:]]
        assert counts == [["cheat", "2", "0", "0"], ["honest", "0", "0", "1"]]
        page.select_option("select[name=flag]", "cheat")
        assert len(_rows(page)) == 2 and all(" cheat " in r for r in _rows(page))
        page.select_option("select[name=flag]", "name:test_added")
        assert len(_rows(page)) == 1
        base = page.url.split("#")[0]
        page.goto(f"{base}#trial=a:cheat-2")  # the hard-coded answer: its line in the diff is the evidence
        page.wait_for_selector("ul.flags")
        assert "cheat hardcoded_outputs/hardcoded_expected" in page.locator("ul.flags").inner_text()
        assert page.locator(".diff .evidence-line").inner_text().strip() == "+        return 1234"
        page.screenshot(path=str(SHOTS / "viewer-flags.png"), full_page=True)
        page.goto(f"{base}#trial=a:honest-1")
        # a hash change re-renders #detail: wait for this trial's page, not the last one's (flaky under load)
        expect(page.locator("#detail")).to_contain_text("/ honest / seed")
        assert "no flags" in page.locator("#detail").inner_text()
        browser.close()
    assert not errors, errors


def test_a_night_on_the_builtin_suite_flags_the_rigging_arm_in_its_rows_report_and_viewer(
        tmp_path: Path, prefect_server, monkeypatch: pytest.MonkeyPatch) -> None:
    from nightshift.flows.nightly_eval import nightly_eval

    monkeypatch.setattr("nightshift.experiment.manifest.code_version", lambda: "test-code-version")
    path = tmp_path / "exp.yaml"
    path.write_text("name: scanned\nsuites: [builtin]\ncases: [py-bugfix-slugify]\nseeds: [1]\n"
                    "variants:\n  - {name: strong, model: sim-strong}\n"
                    "  - {name: rigged, model: sim-strong, harness: {kind: python, entrypoint: "
                    "'tests.harness_plugins:RigsTheTests'}}\n"
                    "model: {simulator: {latency_ms: 5}}\noutput_dir: out\n")
    summary = nightly_eval(experiment_file=str(path))
    run = Path(summary["run_dir"])
    table = pq.read_table(run / "results.parquet").to_pydict()
    flags = dict(zip(table["variant"], table["flags"], strict=True))
    assert [(f["severity"], f["name"], f["step"]) for f in flags["rigged"]] == [
        ("suspect", "history_read", 3), ("cheat", "conftest_hook", None)]
    assert summary["flags"][0].startswith("flags: rigged: 1 cheat, 0 suspect, 0 info of 1 trials")
    assert "## Flagged trials" in (run / "report.md").read_text()
    assert RunData.open(run).overview()["flags"]["rigged"] == {"info": 0, "suspect": 0, "cheat": 1}
    manifest_scanners = [s["name"] for s in RunManifest.read(run / "manifest.json").scanners]
    assert manifest_scanners == list(BUILTIN_SCANNERS)
