"""The model endpoint a run talks to: the configured URL, or the embedded simulator started here."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from nightshift.experiment.config import Experiment, ExperimentError


@dataclass
class Endpoint:
    base_url: str
    api_key: str
    simulated: bool

    def simulator_requests(self) -> int | None:
        """Chat completions the simulator has served since it started (None for a real endpoint)."""
        if not self.simulated:
            return None
        return httpx.get(self.base_url.removesuffix("/v1") + "/sim/stats", timeout=10).json()["requests"]


@contextmanager
def model_endpoint(exp: Experiment, suite_dirs: list[Path], log_dir: Path) -> Iterator[Endpoint]:
    """The configured endpoint; with no base_url, a simulator that runs for the length of the block."""
    if exp.model.base_url:
        key = os.environ.get(exp.model.api_key_env)
        if not key:
            raise ExperimentError(f"field 'model.api_key_env': environment variable {exp.model.api_key_env} is "
                                  f"not set; export it with the endpoint's API key")
        yield Endpoint(exp.model.base_url, key, simulated=False)
        return
    from nightshift.simulator.config import SimulatorConfig
    from nightshift.simulator.embedded import running_simulator

    sim = exp.model.simulator
    config = SimulatorConfig(latency_ms=sim.latency_ms, requests_per_minute=sim.requests_per_minute,
                             tokens_per_minute=sim.tokens_per_minute, fault_rate=sim.fault_rate)
    log_path = log_dir / f"requests-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.jsonl"
    with running_simulator(config, suite_dirs, log_path) as base_url:
        yield Endpoint(base_url, os.environ.get(exp.model.api_key_env) or f"sk-sim-{secrets.token_hex(8)}", True)
