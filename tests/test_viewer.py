"""The trajectory viewer on a real run: its data (held-out redaction, artefacts), the server, and the page in a
real browser (Playwright driving Debian's chromium): filters, one trial, side by side, held-out, static files.

Screenshots go to test-output/viewer-*.png.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from nightshift.viewer.run_data import RunData, RunNotFound
from nightshift.viewer.server import create_app, write_static
from tests.conftest import BUILTIN, REPO, free_port
from tests.host_support import chromium
from tests.sandbox_support import make_backend
from tests.viewer_support import HELD_OUT, PUBLIC, make_run

SHOTS = REPO / "test-output"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, builtin_cases) -> tuple[RunData, RunData]:
    """Run ``night-a``: 2 public cases + 1 held-out × strong/weak × seed 1; ``night-b``: one case again (--vs)."""
    backend = make_backend("bubblewrap")
    by_id = {c.id: c for c in builtin_cases}
    root = tmp_path_factory.mktemp("viewer") / "runs"
    make_run(root / "night-a", [by_id[c] for c in [*PUBLIC, HELD_OUT]], ["strong", "weak"], [1], BUILTIN, backend)
    make_run(root / "night-b", [by_id[PUBLIC[0]]], ["weak"], [1], BUILTIN, backend)
    return RunData.open(root / "night-a"), RunData.open(root / "night-b", "b")


def test_artefacts_sit_beside_each_row_and_held_out_cases_keep_none(runs, builtin_cases) -> None:
    run, _ = runs
    held = next(c for c in builtin_cases if c.id == HELD_OUT)
    for row in run.rows:
        grade, diff = run.path / "grades" / f"{row['trial_id']}.json", run.path / "diffs" / f"{row['trial_id']}.diff"
        if row["split"] == "heldout":
            assert not grade.exists() and not diff.exists()
        else:
            tests = json.loads(grade.read_text())["tests"]
            assert {t["kind"] for t in tests} >= {"fail_to_pass"} and all("detail" in t for t in tests)
            assert diff.is_file()
    resolved = [r for r in run.rows if r["status"] == "resolved"]
    assert resolved, "the strong simulated model resolves some case"
    assert "+++ b/" in (run.path / "diffs" / f"{resolved[0]['trial_id']}.diff").read_text()  # it changed files
    # nothing held out leaves the data layer: not the instruction, not a test name, not the reason
    record = run.trial(next(r["trial_id"] for r in run.rows if r["split"] == "heldout"))
    assert record["heldout"] and set(record) == {"row", "heldout"} and record["row"]["reason"] is None
    listed = json.dumps([run.list_rows(), run.search_text()])
    assert held.instruction[:60] not in listed and held.fail_to_pass[0] not in json.dumps(record)


def test_one_trial_has_its_steps_grade_and_diff(runs) -> None:
    run, _ = runs
    row = next(r for r in run.rows if r["case_id"] == PUBLIC[0] and r["variant"] == "strong")
    record = run.trial(row["trial_id"])
    steps = record["steps"]
    assert [s["step"] for s in steps] == list(range(1, len(steps) + 1)) == list(range(1, row["steps"] + 1))
    assert any(c["command"] and c["output"].startswith("exit code:") for s in steps for c in s["calls"])
    assert all(s["usage"]["input_tokens"] > 0 for s in steps)  # tokens of each model call
    assert record["grade"]["tests"] and record["diff"] is not None


def test_a_missing_run_folder_names_itself_and_its_parent(tmp_path: Path) -> None:
    with pytest.raises(RunNotFound, match=f"{tmp_path}/nope: no such run folder.*parent {tmp_path} exists"):
        RunData.open(tmp_path / "nope")


@contextlib.contextmanager
def serving(run: RunData, vs: RunData | None = None) -> Iterator[str]:
    """The viewer's server on a free port for the block; its base URL."""
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(run, vs), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def server(runs) -> Iterator[str]:
    with serving(*runs) as url:
        yield url


def test_server_serves_sibling_runs_and_nothing_outside_them(server, runs) -> None:
    run, _ = runs
    assert httpx.get(f"{server}/run/night-b/data/a/list.js").status_code == 200  # a sibling run folder
    for bad in ("/run/..%2F..%2Fetc/index.html", "/run/night-a/data/a/t/..%2F..%2Fmanifest.js",
                "/run/night-a/assets/../../pyproject.toml", "/run/night-a/data/a/t/nope.js", "/run/.x/"):
        assert httpx.get(server + bad, follow_redirects=True).status_code == 404, bad
    held = next(r["trial_id"] for r in run.rows if r["split"] == "heldout")
    text = httpx.get(f"{server}/run/night-a/data/a/t/{held}.js").text
    assert '"heldout":true' in text and '"steps":[' not in text and '"grade"' not in text


def _browser(pw):
    return pw.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])


def _rows(page) -> list[str]:
    return page.locator("#grid-body .row").evaluate_all("els => els.map(e => e.innerText.replace(/\\s+/g, ' '))")


def test_in_a_browser_filters_one_trial_side_by_side_and_held_out(server, runs, builtin_cases) -> None:
    from playwright.sync_api import sync_playwright

    run, vs = runs
    SHOTS.mkdir(exist_ok=True)
    held = next(c for c in builtin_cases if c.id == HELD_OUT)
    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server}/")  # redirects to the run, with the --vs run beside it
        page.wait_for_selector("body[data-ready='1']")
        total = len(run.rows) + len(vs.rows)
        assert page.locator("#shown").inner_text() == f"({total} of {total})"
        page.screenshot(path=str(SHOTS / "viewer-overview.png"), full_page=True)

        # filters: status, variant, then a search in the agent's commands
        failed = [r for r in run.rows + vs.rows if r["status"] == "failed"]
        page.select_option("select[name=status]", "failed")
        assert failed and len(_rows(page)) == len(failed) and all(" failed " in r for r in _rows(page))
        page.select_option("select[name=status]", "")
        page.select_option("select[name=run]", "a")
        page.select_option("select[name=variant]", "weak")
        assert len(_rows(page)) == sum(r["variant"] == "weak" for r in run.rows)
        page.select_option("select[name=variant]", "")
        command = next(c["command"] for r in run.rows if r["split"] != "heldout"
                       for s in run.trial(r["trial_id"])["steps"] for c in s["calls"] if len(c["command"]) > 8)
        word = max(command.split(), key=len)
        page.fill("input[name=q]", word)
        page.wait_for_function("document.querySelectorAll('#grid-body .row').length > 0")
        hits = {r["trial_id"] for r in run.rows if word.lower() in run.search_text().get(r["trial_id"], "").lower()
                or word.lower() in (r["reason"] or "").lower()}
        shown = page.locator("#grid-body .row").evaluate_all("els => els.map(e => e.dataset.trial)")
        assert set(shown) == hits and hits
        page.screenshot(path=str(SHOTS / "viewer-search.png"))
        page.fill("input[name=q]", "")
        # sort by duration, longest first
        page.click(".grid-head [data-key=duration_s]")
        page.click(".grid-head [data-key=duration_s]")
        first = page.locator("#grid-body .row").first.get_attribute("data-trial")
        # (a held-out trial's duration is not shown, so it sorts last)
        assert first == max((r for r in run.rows if r["split"] != "heldout"), key=lambda r: r["duration_s"])["trial_id"]

        # one trial: steps in order, grade, diff
        strong = next(r for r in run.rows if r["case_id"] == PUBLIC[0] and r["variant"] == "strong")
        page.click(f"#grid-body .row[data-trial='{strong['trial_id']}']") if page.locator(
            f"#grid-body .row[data-trial='{strong['trial_id']}']").count() else page.evaluate(
            f"location.hash = 'trial=a:{strong['trial_id']}'")
        page.wait_for_selector("#detail .step")
        assert page.locator("#detail .step").count() == strong["steps"]
        assert page.locator("#detail table.grade tr").count() > 1 and page.locator("#detail pre.diff .add").count() > 0
        page.screenshot(path=str(SHOTS / "viewer-trial.png"), full_page=True)

        # side by side: strong vs weak on the same case and seed, the first divergence marked
        page.click("#detail a.pair-link >> text=weak")
        page.wait_for_selector("#divergence")
        banner = page.locator("#divergence").inner_text()
        assert banner.startswith("first divergence at step") or banner == "the two trials took the same steps"
        if banner.startswith("first divergence"):
            step = int(banner.split("step ")[1].split()[0])
            marked = page.locator(".step.diverge")
            assert marked.count() >= 1 and marked.first.get_attribute("data-step") == str(step)
        page.screenshot(path=str(SHOTS / "viewer-side-by-side.png"))

        # the same case and seed in the --vs run
        other = vs.rows[0]
        page.evaluate(f"location.hash = 'pair=a:{strong['trial_id']},b:{other['trial_id']}'")
        page.wait_for_selector("#divergence")
        assert vs.run_id in page.locator("#detail").inner_text()

        # held out: ids and scores, nothing of the case
        held_row = next(r for r in run.rows if r["split"] == "heldout")
        page.evaluate(f"location.hash = 'trial=a:{held_row['trial_id']}'")
        page.wait_for_selector("#detail .heldout")
        text = page.content()
        assert held_row["trial_id"] in text and held.instruction[:40] not in text
        assert page.locator("#detail .step").count() == 0 and page.locator("#detail table.grade").count() == 0
        page.screenshot(path=str(SHOTS / "viewer-heldout.png"))
        assert errors == []
        browser.close()


def test_static_copy_opens_from_disk(runs, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    run, _ = runs
    out = tmp_path / "static"
    written = write_static(run, None, out)
    assert written == 3 + 2 + len(run.rows)
    row = next(r for r in run.rows if r["split"] != "heldout")
    with sync_playwright() as pw:
        browser = _browser(pw)
        page = browser.new_page()
        page.goto((out / "index.html").as_uri() + f"#trial=a:{row['trial_id']}")
        page.wait_for_selector("#detail .step")
        assert page.locator("#detail h2").inner_text().startswith(row["case_id"])
        browser.close()


def test_the_report_links_each_case_and_each_regression_to_the_viewer(runs, tmp_path: Path) -> None:
    from nightshift.analysis import analyse
    from nightshift.analysis.report import write_report

    run, _ = runs
    result = analyse([run.path / "results.parquet"], baseline="strong")
    _, page = write_report(result, tmp_path, "t")
    text = page.read_text()
    for case in {r["case_id"] for r in run.rows}:
        assert f"<a href='http://127.0.0.1:4300/run/night-a/#case={case}'>{case}</a>" in text
    by = {(r["case_id"], r["variant"]): r for r in run.rows}
    worse = [c for c in {r["case_id"] for r in run.rows}
             if by[(c, "strong")]["status"] == "resolved" and by[(c, "weak")]["status"] != "resolved"]
    for case in worse:  # one seed each: the regression opens exactly these two trials side by side
        pair = f"#pair=a:{by[(case, 'strong')]['trial_id']},a:{by[(case, 'weak')]['trial_id']}"
        assert f"<a href='http://127.0.0.1:4300/run/night-a/{pair}'>{case}</a>" in text


def test_viewer_bench_runs_at_smoke_size(runs) -> None:
    """bench/viewer_bench.py at --smoke size, made from this real run (tests/test_bench_smoke.py has the others)."""
    from tests.test_bench_smoke import run_bench

    chromium()  # fails where chromium is required, skips elsewhere, naming the fix
    out = run_bench("viewer_bench", "--source", str(runs[0].path))
    assert re.search(r"^40 trials: first paint median \d+ ms", out, re.M), out
