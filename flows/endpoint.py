"""The model endpoint a run talks to: the configured URL, or the embedded simulator started here.

The API key never enters Prefect's state (no flow or task parameter, result, artifact or log): every
process that calls the model reads it itself with ``api_key`` — from the environment variable
``model.api_key_env``, or from the Prefect Secret block ``model.api_key_secret`` (stored encrypted by
the server, never returned by its API unless asked). The embedded simulator accepts any key; with
none configured every process uses the fixed, non-secret ``SIMULATOR_KEY``, so the parent and its
shards share one simulated quota without a key being passed between them.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from prefect import get_run_logger
from prefect.blocks.system import Secret
from prefect.exceptions import MissingContextError

from nightshift.experiment.config import Experiment, ExperimentError
from nightshift.flows.sync_calls import sync_value
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator

SIMULATOR_KEY = "sk-simulator-not-a-secret"  # the simulator checks only that a key is sent


def api_key(exp: Experiment) -> str | None:
    """The endpoint's key as this process can read it: its environment, else the named Secret block."""
    key = os.environ.get(exp.model.api_key_env)
    if key or not exp.model.api_key_secret:
        return key or None

    try:
        value = sync_value(Secret.load(exp.model.api_key_secret), "Secret.load").get()
    except ValueError as exc:
        raise ExperimentError(f"field 'model.api_key_secret': no Prefect Secret block named "
                              f"{exp.model.api_key_secret!r} on this server ({exc}); create it (prefect block "
                              f"create secret, or Secret(value=KEY).save(NAME)) or export "
                              f"{exp.model.api_key_env}") from exc
    return str(value) if value else None


@dataclass
class Endpoint:
    base_url: str
    api_key: str = field(repr=False)  # never printed: a repr in a log line would be in Prefect's database
    simulated: bool

    def simulator_requests(self) -> int | None:
        """Chat completions the simulator has served since it started (None for a real endpoint)."""
        if not self.simulated:
            return None
        return httpx.get(self.base_url.removesuffix("/v1") + "/sim/stats", timeout=10).json()["requests"]


def _logger() -> logging.Logger | logging.LoggerAdapter:
    """The flow run's logger; outside a flow (``nightshift scan`` re-scanning with a judge) the module's."""
    try:
        return get_run_logger()
    except MissingContextError:
        return logging.getLogger("nightshift.endpoint")


@contextmanager
def model_endpoint(exp: Experiment, suite_dirs: list[Path], log_dir: Path) -> Iterator[Endpoint]:
    """The configured endpoint; with no base_url, a simulator that runs for the length of the block."""
    if exp.model.base_url:
        key = api_key(exp)
        if not key:
            raise ExperimentError(f"field 'model.api_key_env': environment variable {exp.model.api_key_env} is "
                                  f"not set (and no 'model.api_key_secret' names a Prefect Secret block); export "
                                  f"it with the endpoint's API key")
        yield Endpoint(exp.model.base_url, key, simulated=False)
        return

    sim = exp.model.simulator
    config = SimulatorConfig(latency_ms=sim.latency_ms, requests_per_minute=sim.requests_per_minute,
                             tokens_per_minute=sim.tokens_per_minute, fault_rate=sim.fault_rate)
    log_path = log_dir / f"requests-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.jsonl"
    began = time.monotonic()
    with running_simulator(config, suite_dirs, log_path) as base_url:
        _logger().info("model simulator started in %.1f s on %s (no model.base_url: the embedded default)",
                              time.monotonic() - began, base_url)
        yield Endpoint(base_url, api_key(exp) or SIMULATOR_KEY, True)
