"""The nightly deployment on a real local Prefect server: prefect.yaml applied, a process worker, the
documented `prefect deployment run nightly-eval/nightly`, artifacts in the API, and the UI in a browser."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from prefect.client.orchestration import get_client

from nightshift.deployments.auth import CLIENT_ENV
from nightshift.deployments.server import deploy, start_worker, stop
from tests.host_support import chromium

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the checkout: prefect.yaml is applied from here
OUTPUT = PROJECT_ROOT / "test-output"


@pytest.fixture(scope="module")
def deployed_run(prefect_server: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Deploy prefect.yaml, start a worker, run the deployment the way a user does; wait for the end."""
    tmp = tmp_path_factory.mktemp("deployment")
    exp = tmp / "small.yaml"
    exp.write_text("name: deployed\ncases: [py-bugfix-slugify, sh-csv-column-sum]\n"
                   "variants: [{name: strong, model: sim-strong}, {name: weak, model: sim-weak}]\n"
                   "seeds: [1]\nconcurrency: 2\nmodel: {simulator: {latency_ms: 5}}\noutput_dir: out\n")
    deploy(prefect_server)
    start_worker(prefect_server, state_dir=tmp)
    try:
        cli = subprocess.run(
            [sys.executable, "-m", "prefect", "deployment", "run", "nightly-eval/nightly",
             "--param", f"experiment_file={exp}"],
            env={**os.environ, "PREFECT_API_URL": prefect_server}, capture_output=True, text=True, check=True)
        flow_run_id = re.search(r"UUID: ([0-9a-f-]{36})", cli.stdout).group(1)
        with get_client(sync_client=True) as client:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                run = client.read_flow_run(flow_run_id)
                if run.state and run.state.is_final():
                    break
                time.sleep(1)
            deployment = client.read_deployment_by_name("nightly-eval/nightly")
            artifacts = client.read_artifacts()
        yield {"run": run, "deployment": deployment, "artifacts": artifacts, "exp": exp, "tmp": tmp,
               "url": prefect_server}
    finally:
        stop("worker", tmp)


def test_deployment_has_cron_schedule_and_parameters(deployed_run: dict) -> None:
    deployment = deployed_run["deployment"]
    assert deployment.work_pool_name == "nightshift-local"
    assert deployment.parameters["experiment_file"] == "experiments/default.yaml"
    (schedule,) = deployment.schedules
    assert schedule.schedule.cron == "0 1 * * *" and schedule.schedule.timezone == "UTC"
    assert schedule.active


def test_deployment_run_completes_with_artifacts(deployed_run: dict) -> None:
    run = deployed_run["run"]
    assert run.state.is_completed(), run.state
    mine = {a.key: a for a in deployed_run["artifacts"] if a.flow_run_id == run.id}
    assert {"nightly-eval-summary", "nightly-eval-report", "nightly-eval-results"} <= set(mine)
    assert "strong" in str(mine["nightly-eval-summary"].data)
    assert mine["nightly-eval-results"].data.endswith("results.parquet)") or "results.parquet" in mine[
        "nightly-eval-results"].data
    progress = [a for a in deployed_run["artifacts"] if a.flow_run_id == run.id and a.type == "progress"]
    assert progress and float(progress[0].data) == 100.0
    assert list((deployed_run["tmp"] / "out").glob("deployed-*/results.parquet"))


def test_the_server_refuses_requests_without_the_credential_while_its_worker_ran_the_night(deployed_run: dict
                                                                                         ) -> None:
    """The night above ran through a worker on this server; a stranger's request, or one with a wrong credential,
    is refused (real HTTP, the API the worker used)."""
    from nightshift.deployments.auth import basic_header, credential_file
    from tests.conftest import _STATE

    url, run = deployed_run["url"], deployed_run["run"]
    assert run.state.is_completed(), run.state
    path = credential_file(_STATE)
    assert path.stat().st_mode & 0o777 == 0o600
    secret = path.read_text().strip()
    assert os.environ[CLIENT_ENV] == secret  # what the worker and the prefect CLI above were handed
    read_run = f"{url}/flow_runs/{run.id}"
    assert httpx.get(read_run, timeout=10).status_code == 401
    assert httpx.get(read_run, headers=basic_header(secret + "x"), timeout=10).status_code == 401
    assert httpx.get(read_run, headers={"Authorization": f"Bearer {secret}"}, timeout=10).status_code == 401
    assert httpx.post(f"{url}/deployments/filter", json={}, timeout=10).status_code == 401
    answer = httpx.get(read_run, headers=basic_header(secret), timeout=10)
    assert answer.status_code == 200 and answer.json()["state"]["type"] == "COMPLETED"
    env = {k: v for k, v in os.environ.items() if k != CLIENT_ENV}
    cli = subprocess.run([sys.executable, "-m", "prefect", "deployment", "run", "nightly-eval/nightly"],
                         env={**env, "PREFECT_API_URL": url}, capture_output=True, text=True, timeout=120)
    assert cli.returncode != 0 and "401" in cli.stdout + cli.stderr  # nobody can start a night without it


def test_ui_shows_the_flow_run_and_its_artifacts(deployed_run: dict) -> None:
    browser_binary = chromium()  # fails where chromium is required, skips elsewhere
    from playwright.sync_api import sync_playwright

    ui = deployed_run["url"].removesuffix("/api")
    run = deployed_run["run"]
    OUTPUT.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=browser_binary, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        # the UI asks for the server's credential and keeps it in local storage, base64 (as Prefect's login does)
        page.add_init_script(f"localStorage.setItem('prefect-password', btoa({os.environ[CLIENT_ENV]!r}))")
        page.goto(f"{ui}/runs/flow-run/{run.id}", wait_until="networkidle")
        page.get_by_text(run.name).first.wait_for(timeout=30_000)
        page.screenshot(path=str(OUTPUT / "ui-flow-run.png"), full_page=True)
        page.get_by_text("Artifacts", exact=True).first.click()
        page.get_by_text("nightly-eval-summary").first.wait_for(timeout=30_000)
        page.screenshot(path=str(OUTPUT / "ui-flow-run-artifacts.png"), full_page=True)
        browser.close()
    assert (OUTPUT / "ui-flow-run-artifacts.png").stat().st_size > 10_000
