"""The API key never enters Prefect's state: a sharded night run with a canary key leaves no trace of it.

The parent flow reads the key from its environment; the worker is started *without* it and its child
flow runs read it from the Prefect Secret block the experiment names. The parent starts the
simulator itself (no base_url), the case that used to hand the key to the children as a flow-run
parameter. Afterwards the canary is searched for in the Prefect server's database files, in the
responses of the API's filter endpoints, and in every file under the run folder and the state
folders (Prefect home, sandbox root, logs): zero hits. The simulator's log proves the canary was the
key actually used, by the parent and by the children.
"""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from nightshift.deployments.auth import CLIENT_ENV, basic_header
from nightshift.deployments.server import QUIET_ENV, deploy
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.simulator.request_log import key_hash, read_log
from tests.conftest import _STATE, BUILTIN
from tests.conftest import REPO as PROJECT_ROOT
from tests.process_support import start_group, stop_group

KEY_ENV = "NIGHTSHIFT_CANARY_TEST_KEY"
SECRET_BLOCK = "nightshift-canary-key"
CASES = sorted(p.name for p in BUILTIN.iterdir() if (p / "case.toml").is_file())[:3]
API_FILTERS = ["flow_runs", "task_runs", "logs", "artifacts", "deployments", "block_documents", "variables",
               "work_pools", "flows", "concurrency_limits"]


def _hits(root: Path, needle: bytes) -> tuple[list[str], list[str]]:
    """The files under ``root`` holding ``needle``, and those that could not be read (each with why)."""
    found, unread = [], []
    for path in root.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink() and needle in path.read_bytes():
                found.append(str(path))
        except FileNotFoundError:
            continue  # gone between listing and reading (a journal the server removed): nothing left to hold it
        except OSError as exc:
            unread.append(f"{path}: {exc}")
    return found, unread


@pytest.fixture(scope="module")
def canary_night(prefect_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    from prefect.blocks.system import Secret

    tmp = tmp_path_factory.mktemp("canary")
    canary = f"sk-canary-{uuid.uuid4().hex}"
    Secret(value=canary).save(SECRET_BLOCK, overwrite=True)
    # the positive control: a value that does enter Prefect's state, so the scans below must find it
    control = f"nightshift-canary-control-{uuid.uuid4().hex}"
    httpx.post(f"{prefect_server}/variables/", json={"name": "nightshift_canary_control", "value": control},
               headers=basic_header(os.environ[CLIENT_ENV]), timeout=30).raise_for_status()
    exp = tmp / "canary.yaml"
    exp.write_text(f"""
name: canary
cases: {CASES}
variants: [{{name: strong, model: sim-strong}}]
seeds: [1, 2]
concurrency: 2
model: {{api_key_env: {KEY_ENV}, api_key_secret: {SECRET_BLOCK}}}
shards: {{count: 2, poll_s: 1}}
schedule: {{history: none}}
output_dir: out
""")
    deploy(prefect_server)
    worker_env = {k: v for k, v in os.environ.items() if k != KEY_ENV}  # the worker must use the Secret block
    worker_env.update({**QUIET_ENV, "PREFECT_API_URL": prefect_server, "PREFECT_WORKER_QUERY_SECONDS": "1"})
    worker = start_group([sys.executable, "-m", "prefect", "worker", "start", "--pool", "nightshift-local", "--name",
                          "canary-worker", "--limit", "2"], worker_env, PROJECT_ROOT, tmp / "worker.log")
    os.environ[KEY_ENV] = canary
    try:
        summary = nightly_eval(experiment_file=str(exp))
    finally:
        os.environ.pop(KEY_ENV, None)
        stop_group(worker, 20)
    yield {"canary": canary, "control": control, "summary": summary, "tmp": tmp, "url": prefect_server}
    httpx.delete(f"{prefect_server}/variables/name/nightshift_canary_control",
                 headers=basic_header(os.environ[CLIENT_ENV]), timeout=30)


def test_the_canary_key_was_the_key_in_use(canary_night: dict) -> None:
    logs = list((canary_night["tmp"] / "out" / ".simulator").glob("requests-*.jsonl"))
    rows = [row for log in logs for row in read_log(log)]
    assert rows and {row["key_hash"] for row in rows} == {key_hash(canary_night["canary"])}
    assert canary_night["summary"]["trials"] == len(CASES) * 2


def test_no_file_of_the_run_or_the_state_folders_holds_the_key(canary_night: dict) -> None:
    roots = [root for root in (canary_night["tmp"], _STATE, PROJECT_ROOT / ".nightshift") if root.is_dir()]
    assert (_STATE / "prefect-server").is_dir()  # the server's SQLite database is among them

    def scan(needle: str) -> list[str]:
        found = [_hits(root, needle.encode()) for root in roots]
        unread = [line for _, lines in found for line in lines]
        assert unread == [], f"files the scan could not read (a key there would go unseen): {unread}"
        return [hit for hits, _ in found for hit in hits]

    # positive controls: the scan finds a value that is in the server's database, and one in the run folder
    assert any("prefect-server" in hit for hit in scan(canary_night["control"])), "the scan misses the database"
    assert any("/.simulator/" in hit for hit in scan(key_hash(canary_night["canary"])))  # the simulator's log
    assert scan(canary_night["canary"]) == []


def test_no_prefect_api_response_holds_the_key(canary_night: dict) -> None:
    url, canary = canary_night["url"], canary_night["canary"]
    with httpx.Client(base_url=url, headers=basic_header(os.environ[CLIENT_ENV]), timeout=30) as client:
        children = client.post("/flow_runs/filter", json={"limit": 200}).json()
        assert any(run["name"].endswith("shard-1of2") for run in children)
        seen = ""
        for name in API_FILTERS:
            response = client.post(f"/{name}/filter", json={"limit": 200})
            assert response.status_code == 200, (name, response.text[:200])
            assert canary not in response.text, name
            seen += response.text
        assert canary_night["control"] in seen  # the positive control: what is in Prefect's state shows here
        for run in children:
            detail = client.get(f"/flow_runs/{run['id']}")
            assert canary not in detail.text and "endpoint_key" not in detail.text


def test_the_key_comes_from_the_environment_first_then_the_named_secret_block(prefect_server: str, tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from prefect.blocks.system import Secret

    from nightshift.experiment.config import ExperimentError, load_experiment
    from nightshift.flows.endpoint import api_key

    path = tmp_path / "key.yaml"
    path.write_text(f"name: key\nvariants: [{{name: a, model: sim-strong}}]\n"
                    f"model: {{api_key_env: {KEY_ENV}, api_key_secret: nightshift-key-test-missing}}\n")
    exp = load_experiment(path)
    monkeypatch.setenv(KEY_ENV, "from-env")
    assert api_key(exp) == "from-env"
    monkeypatch.delenv(KEY_ENV)
    with pytest.raises(ExperimentError, match="model.api_key_secret.*nightshift-key-test-missing"):
        api_key(exp)
    Secret(value="from-block").save("nightshift-key-test-present", overwrite=True)
    assert api_key(exp.model_copy(update={"model": exp.model.model_copy(
        update={"api_key_secret": "nightshift-key-test-present"})})) == "from-block"
