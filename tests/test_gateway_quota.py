"""The gateway against a live simulator: it learns the quota, stays under it, shares it between
processes, recovers when oversubscribed instead of storming, and holds the optional Prefect slot."""

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nightshift.errors import GatewayError
from nightshift.gateway import ModelGateway, Quota
from nightshift.gateway.loadgen import drive, gateway_caller
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.request_log import key_hash, read_log

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def quota_sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """1,200 requests/min (20/s) per key, a 2 s bucket, 50 ms latency, rejected requests counted."""
    log = tmp_path_factory.mktemp("quota") / "requests.jsonl"
    config = SimulatorConfig(latency_ms=50, requests_per_minute=1200, tokens_per_minute=10_000_000, burst_s=2)
    with running_simulator(config, [], log) as url:
        yield url, log


def rows_of(log: Path, key: str) -> list[dict]:
    return [r for r in read_log(log) if r["key_hash"] == key_hash(key)]


def test_learns_the_quota_from_headers_and_meets_no_429(quota_sim: tuple[str, Path]) -> None:
    url, log = quota_sim
    gateway = ModelGateway(url, "sk-learn", quota=Quota(requests_per_minute=5000))  # stated too high
    assert gateway.resolve_model_version("sim-strong") == "sim-strong-2026-11-01"
    assert gateway.gate.quota.requests_per_minute == 1200  # lowered to what the endpoint says
    assert gateway.gate.quota.tokens_per_minute == 10_000_000  # learned
    result = drive(gateway_caller(gateway, "sim-strong", 64), callers=12, seconds=2.5)
    rows = rows_of(log, "sk-learn")
    assert result.ok >= 40 and not result.failed
    assert not [r for r in rows if r["status"] == 429]
    first = rows[1]["t"]
    steady = [r for r in rows if r["t"] >= first + 1.5]  # after the local 1 s burst
    assert len(steady) / (rows[-1]["t"] - first - 1.5) <= 20 * 1.1


def test_oversubscribed_callers_pause_and_recover_instead_of_storming(quota_sim: tuple[str, Path]) -> None:
    """Two gateways in one process each believe they own the whole key: 429s come, but stay rare."""
    url, log = quota_sim
    gateways = [ModelGateway(url, "sk-greedy", quota=Quota(1200, None)) for _ in range(2)]
    results: list = []
    threads = [threading.Thread(target=lambda g=g: results.append(drive(gateway_caller(g, "sim-strong", 64),
                                                                         callers=12, seconds=4)))
               for g in gateways]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    rows = rows_of(log, "sk-greedy")
    rejected = sum(r["status"] == 429 for r in rows)
    assert len(results) == 2 and all(not r.failed for r in results)
    assert 0 < rejected <= 0.25 * len(rows)  # a storm rejects ~98% (DESIGN.md); pausing keeps it a small share
    assert sum(g.gate.snapshot()["pauses"] for g in gateways) >= 1
    assert min(g.gate.factor for g in gateways) < 1.0


def run_loadgen(url: str, key: str, share: float, seconds: float) -> subprocess.Popen:
    env = {**os.environ, "NIGHTSHIFT_API_KEY": key, "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "nightshift.gateway.loadgen", "--base-url", url, "--callers", "16",
                             "--seconds", str(seconds), "--rpm", "1200", "--share", str(share),
                             "--max-tokens", "64", "--handshake"],
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def test_two_processes_share_one_quota(quota_sim: tuple[str, Path]) -> None:
    """Each of two processes takes its half: together they fill the quota and meet no 429. The same two
    processes each claiming the whole quota (another key, at the same time) do meet 429s."""
    url, log = quota_sim
    seconds = 5.0
    procs = {(key, i): run_loadgen(url, key, share, seconds)
             for key, share in (("sk-shared", 0.5), ("sk-claimed", 1.0)) for i in range(2)}
    for proc in procs.values():
        assert json.loads(proc.stdout.readline()) == {"ready": True}
    start = time.time() + 0.2
    for proc in procs.values():
        proc.stdin.write(f"{start}\n")
        proc.stdin.flush()
    summaries = {k: json.loads(p.communicate(timeout=60)[0].strip().splitlines()[-1]) for k, p in procs.items()}
    assert all(p.returncode == 0 for p in procs.values())
    assert all(s["ok"] > 0 and not s["failed"] for s in summaries.values())

    rows = rows_of(log, "sk-shared")
    assert not [r for r in rows if r["status"] != 200]
    steady = [r for r in rows if start + 1.5 <= r["t"] <= start + seconds]  # after both local bursts
    rate = len(steady) / (seconds - 1.5)
    # no more than the 20/s quota; that the halves together fill it is bench/fleet_bench.py's figure ("fixed
    # shares", quota used), not a window here: a loaded machine sends less. The claimed key below is the control
    # that this load was enough to exceed the quota.
    assert 0 < rate <= 1.05 * 20
    halves = [summaries[("sk-shared", i)]["ok"] for i in range(2)]
    assert min(halves) >= 0.4 * sum(halves)

    claimed = rows_of(log, "sk-claimed")
    assert sum(r["status"] == 429 for r in claimed) > 0


def test_api_slot_holds_a_prefect_concurrency_slot(quota_sim: tuple[str, Path], prefect_server) -> None:
    from prefect.client.orchestration import get_client

    gateway = ModelGateway(quota_sim[0], "sk-slot", concurrency_limit="nightshift-test-model-api",
                           concurrency_slots=3)
    session = gateway.session()

    def active() -> tuple[int, int]:
        with get_client(sync_client=True) as client:
            limit = client.read_global_concurrency_limit_by_name("nightshift-test-model-api")
        return limit.limit, limit.active_slots

    with session.api_slot():
        assert active() == (3, 1)  # created with the run's concurrency, one slot held by this trial
        session.chat(model="sim-strong", messages=[{"role": "user", "content": "hi"}], tools=[], temperature=0,
                     seed=0, max_tokens=8)
    assert active() == (3, 0)
    assert session.quota_wait_s > 0 and session.calls == 1


def test_no_limit_name_means_no_prefect_at_all(quota_sim: tuple[str, Path]) -> None:
    session = ModelGateway(quota_sim[0], "sk-noslot", max_retries=0).session()
    with session.api_slot(), pytest.raises(GatewayError, match="404"):
        session.chat(model="nope", messages=[{"role": "user", "content": "hi"}], tools=[], temperature=0,
                     seed=0, max_tokens=8)
