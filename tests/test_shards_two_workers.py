"""A sharded night on a real local Prefect server: two process workers on the work pool run its child flow
runs, both sharing one simulator quota. Every trial runs exactly once (trial ids; the simulator's request
log), the quota holds across both workers, and a parent that crashes after launching its shards and is
retried (same flow run) gets its children back instead of making new ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName, FlowFilter, FlowFilterName

import nightshift.flows.shards
from nightshift.deployments.server import QUIET_ENV, deploy
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.request_log import read_log
from tests.conftest import BUILTIN
from tests.process_support import start_group, stop_group, wait_for_workers

PROJECT_ROOT = Path(__file__).resolve().parent.parent  # the checkout: prefect.yaml is applied from here
RPM = 300  # 5 requests/s for both workers together: the night below needs about a minute of it
KEY_ENV = "NIGHTSHIFT_SHARD_TEST_KEY"
CASES = sorted(p.name for p in BUILTIN.iterdir() if (p / "case.toml").is_file())[:10]


def start_worker(url: str, name: str, log_dir: Path) -> subprocess.Popen:
    """A process worker that runs one flow run at a time, so the two shards land on two workers."""
    env = {**os.environ, **QUIET_ENV, "PREFECT_API_URL": url, "PREFECT_WORKER_QUERY_SECONDS": "1"}
    return start_group([sys.executable, "-m", "prefect", "worker", "start", "--pool", "nightshift-local", "--name",
                        name, "--limit", "1"], env, PROJECT_ROOT, log_dir / f"{name}.log")


@pytest.fixture(scope="module")
def sharded_night(prefect_server: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("shards")
    log = tmp / "requests.jsonl"
    config = SimulatorConfig(latency_ms=5, requests_per_minute=RPM, tokens_per_minute=10_000_000, burst_s=5)
    os.environ[KEY_ENV] = "sk-shard-test"  # the workers (and so the children) inherit it
    with running_simulator(config, [BUILTIN], log) as url:
        exp = tmp / "sharded.yaml"
        exp.write_text(f"""
name: sharded
cases: {CASES}
variants: [{{name: strong, model: sim-strong}}, {{name: weak, model: sim-weak}}]
seeds: [1, 2]
concurrency: 8
model: {{base_url: "{url}", api_key_env: {KEY_ENV}, requests_per_minute: {RPM}}}
shards: {{count: 2, poll_s: 1}}
alerts: {{infra_share: 0.5, window: 10}}
schedule: {{history: none}}
output_dir: out
""")
        deploy(prefect_server)
        workers = [start_worker(prefect_server, f"shard-worker-{i}", tmp) for i in (1, 2)]
        wait_for_workers("nightshift-local", {"shard-worker-1", "shard-worker-2"}, workers)
        crashes: list[float] = []
        real_pause = nightshift.flows.shards._pause

        def crash_once(seconds: float) -> None:
            if not crashes:  # the first attempt of the parent dies right after launching its shards
                crashes.append(time.monotonic())
                raise RuntimeError("parent flow process lost (test)")
            real_pause(seconds)

        nightshift.flows.shards._pause = crash_once
        try:
            started = time.monotonic()
            summary = nightly_eval.with_options(retries=1, retry_delay_seconds=0)(experiment_file=str(exp))
            wall = time.monotonic() - started
        finally:
            nightshift.flows.shards._pause = real_pause
            for worker in workers:
                stop_group(worker, 20)
            os.environ.pop(KEY_ENV, None)
    with get_client(sync_client=True) as client:
        children = client.read_flow_runs(deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=["shard"])),
                                         flow_filter=FlowFilter(name=FlowFilterName(any_=["nightly-shard"])))
        parents = client.read_flow_runs(flow_filter=FlowFilter(name=FlowFilterName(any_=["nightly-eval"])))
    run_dir = Path(summary["run_dir"])
    return {"summary": summary, "log": read_log(log), "children": [c for c in children if run_dir.name in c.name],
            "parents": parents, "run_dir": run_dir, "crashes": crashes, "wall": wall}


def test_every_trial_runs_exactly_once(sharded_night: dict) -> None:
    parquet = sharded_night["summary"]["parquet"]
    rows = duckdb.sql(f"SELECT case_id, model, seed, model_calls, rate_limited, status FROM '{parquet}'").fetchall()
    assert len(rows) == len(CASES) * 2 * 2 == len({(r[0], r[1], r[2]) for r in rows})
    assert all(status != "infra_error" for *_, status in rows)
    served = Counter((r["case_id"], r["model"], r["seed"]) for r in sharded_night["log"]
                     if r["case_id"] and r["status"] == 200)
    # a trial run twice would have twice its calls in the simulator's log
    assert served == {(case, model, seed): calls - limited for case, model, seed, calls, limited, _ in rows}


def test_the_parent_sees_every_shard_result_for_its_infra_verdict(sharded_night: dict) -> None:
    # the alarm and the live bar count what the children write, as in an unsharded night
    trust = json.loads((sharded_night["run_dir"] / "trust.json").read_text())
    assert trust["trials"] == len(CASES) * 4 and trust["trustworthy"] and trust["infra_share"] == 0


def test_the_shards_ran_on_both_workers_at_once(sharded_night: dict) -> None:
    records = [json.loads(p.read_text()) for p in (sharded_night["run_dir"] / "shards").glob("*.json")]
    assert sorted(r["worker"] for r in records) == ["shard-worker-1", "shard-worker-2"]
    assert sum(r["trials"] for r in records) == sum(r["with_result"] for r in records) == len(CASES) * 4
    first, second = sorted(records, key=lambda r: r["started_at"])
    assert second["started_at"] < first["finished_at"], "the two shards did not overlap"


def test_a_retried_parent_makes_no_duplicate_children(sharded_night: dict) -> None:
    assert sharded_night["crashes"], "the parent was meant to crash once"
    children = sharded_night["children"]
    assert len(children) == 2 and all(c.state.is_completed() for c in children)
    parent_ids = {c.idempotency_key.split(":")[0] for c in children}
    (parent,) = [p for p in sharded_night["parents"] if str(p.id) in parent_ids]
    assert parent.run_count == 2 and parent.state.is_completed()  # one crash, one retry, one set of children


def test_the_quota_holds_across_both_workers(sharded_night: dict) -> None:
    log = [r for r in sharded_night["log"] if r["case_id"]]
    rejected = sum(r["status"] == 429 for r in log)
    assert rejected <= 0.01 * len(log), f"{rejected} of {len(log)} requests were rejected"
    # the quota bound the night (or this test would prove nothing): requests ran at its rate, not above
    times = sorted(r["t"] for r in log if r["status"] == 200)
    busy = times[-1] - times[0]
    rate = (len(times) - RPM / 60 * 5) / busy * 60  # less the 5 s burst the simulator's bucket starts with
    assert 0.6 * RPM < rate <= 1.05 * RPM, f"{rate:.0f} requests/min over {busy:.0f} s"
    assert sharded_night["wall"] < 180
