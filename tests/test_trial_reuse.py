"""A team's second night: a variant is added, so the run is new, and the unchanged variant's trials are answered
from the trial cache with no model call. Their evidence follows them: the new run folder has their trajectory,
grade and diff (hard-linked from the first run), and the viewer (in chromium), the report and nightshift.results
say they were reused and from which run — never an infrastructure error.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nightshift import results
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.viewer.run_data import RunData
from nightshift.viewer.server import write_static
from tests.test_viewer import SHOTS, _browser

CASE = "py-bugfix-slugify"


def experiment(tmp_path: Path, variants: list[str]) -> Path:
    path = tmp_path / "exp.yaml"
    listed = "\n".join(f"  - {{name: {v}, model: sim-{v}}}" for v in variants)
    path.write_text(f"""
name: reuse
suites: [builtin]
cases: [{CASE}]
variants:
{listed}
seeds: [1]
concurrency: 2
model: {{simulator: {{latency_ms: 5}}}}
output_dir: out
""")
    return path


@pytest.fixture(scope="module")
def two_nights(tmp_path_factory: pytest.TempPathFactory, prefect_server) -> tuple[dict, dict]:
    tmp_path = tmp_path_factory.mktemp("reuse")
    with pytest.MonkeyPatch.context() as mp:
        # pin the code version: an edit elsewhere in a dirty checkout would otherwise change every trial id
        mp.setattr("nightshift.experiment.manifest.code_version", lambda: "test-code-version")
        first = nightly_eval(experiment_file=str(experiment(tmp_path, ["strong"])))
        second = nightly_eval(experiment_file=str(experiment(tmp_path, ["strong", "weak"])))
    return first, second


def test_the_reused_trial_brings_its_trajectory_grade_and_diff(two_nights) -> None:
    first, second = two_nights
    old, new = Path(first["run_dir"]), Path(second["run_dir"])
    assert old != new and old.parent == new.parent
    assert second["model_calls_this_invocation"] > 0  # the new variant ran ...
    reused = [r for r in RunData.open(new).rows if r["variant"] == "strong"]
    assert [r["reused_from"] for r in reused] == [old.name]  # ... the unchanged one did not
    trial = reused[0]["trial_id"]
    for sub, suffix in (("trajectories", ".jsonl"), ("grades", ".json"), ("diffs", ".diff")):
        source, copy = old / sub / f"{trial}{suffix}", new / sub / f"{trial}{suffix}"
        assert copy.read_bytes() == source.read_bytes()
        assert os.path.samefile(copy, source)  # a hard link: no byte twice
    ran = [r for r in RunData.open(new).rows if r["variant"] == "weak"]
    assert [r["reused_from"] for r in ran] == [""]
    record = RunData.open(new).trial(trial)
    assert record["grade"]["tests"] and record["steps"] and record["instruction"]


def test_results_and_the_report_say_which_run_it_came_from(two_nights) -> None:
    first, second = two_nights
    old = Path(first["run_dir"]).name
    frame = results.load(second["run_dir"]).set_index("variant")
    assert frame.loc["strong", "reused_from"] == old and frame.loc["weak", "reused_from"] == ""
    line = f"1 trial reused from run {old}"
    assert any(line in x for x in second["reused"])
    report = (Path(second["run_dir"]) / "report.md").read_text()
    assert "## Reused trials" in report and line in report
    assert first["reused"] == []


def test_in_a_browser_the_reused_trial_shows_its_grade_and_source_not_an_infra_error(two_nights, tmp_path) -> None:
    from playwright.sync_api import sync_playwright

    first, second = two_nights
    run = RunData.open(second["run_dir"])
    trial = next(r["trial_id"] for r in run.rows if r["reused_from"])
    out = tmp_path / "static"
    write_static(run, None, out)
    SHOTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page()
        page.goto((out / "index.html").as_uri())
        page.wait_for_selector("body[data-ready='1']")
        assert f"reused from run {Path(first['run_dir']).name}" in page.locator("#overview p.reused").inner_text()
        page.goto((out / "index.html").as_uri() + f"#trial=a:{trial}")
        page.wait_for_selector("#detail table.grade")
        detail = page.locator("#detail").inner_text()
        assert f"run {Path(first['run_dir']).name} (answered from the trial cache" in detail
        assert page.locator("#detail .step").count() >= 1 and page.locator("#detail table.grade tr").count() > 1
        assert "infrastructure" not in detail and "no grade" not in detail
        page.screenshot(path=str(SHOTS / "viewer-reused-trial.png"), full_page=True)
        browser.close()
