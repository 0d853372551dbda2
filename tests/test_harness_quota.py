"""32 agent CLIs at once, one of them flooding the proxy in parallel: the process's quota still holds."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nightshift.experiment.config import ModelEndpoint
from nightshift.gateway import ModelGateway
from nightshift.models import TrialStatus
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.request_log import key_hash, read_log
from tests.conftest import BUILTIN
from tests.sandbox_support import make_backend
from tests.test_harness_command import SECRET, trial

AGENTS = 32


def test_32_cli_agents_share_one_quota_without_a_429(tmp_path: Path, builtin_cases) -> None:
    log = tmp_path / "requests.jsonl"
    config = SimulatorConfig(latency_ms=20, requests_per_minute=600, tokens_per_minute=10_000_000, burst_s=2)
    backend = make_backend("bubblewrap")
    with running_simulator(config, [BUILTIN], log) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint(requests_per_minute=600,
                                                                         tokens_per_minute=10_000_000))
        modes = ["flood 16"] + ["flood 1"] * (AGENTS - 1)  # one agent sends 16 requests at once, twice
        with ThreadPoolExecutor(AGENTS) as pool:
            rows = list(pool.map(lambda i: trial(url, backend, tmp_path / f"t{i}", builtin_cases[i % 10],
                                                 modes[i], gateway=gateway, max_steps=40)[0], range(AGENTS)))
    served = [r for r in read_log(log) if r["key_hash"] == key_hash(SECRET)]
    assert len(served) == 32 + 2 * (AGENTS - 1) and not [r for r in served if r["status"] == 429]
    assert all(r.status in (TrialStatus.failed, TrialStatus.resolved) for r in rows), [r.reason for r in rows]
    assert sorted(r.model_calls for r in rows) == [2] * (AGENTS - 1) + [32] and sum(r.rate_limited for r in rows) == 0
    span = served[-1]["t"] - served[0]["t"]
    assert len(served) / span <= 10 * 1.5  # shaped to the stated 600/min (plus the gateway's 1 s burst)
