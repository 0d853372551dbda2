"""Settings of one simulator instance: latency, quota, fault injection and the RNG seed."""

from __future__ import annotations

import math
import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

FaultKind = Literal["500", "503", "timeout", "reset", "truncated", "malformed"]
FAULT_KINDS: tuple[FaultKind, ...] = ("500", "503", "timeout", "reset", "truncated", "malformed")
"""What an injected fault does to an admitted request: ``500``/``503`` an error status; ``timeout`` holds
the request for ``hang_s`` then drops it; ``reset`` closes the connection with a TCP RST before any reply;
``truncated`` sends the headers and half the body, then closes; ``malformed`` a 200 whose body is not JSON."""


class SimulatorConfig(BaseModel):
    """How the simulated endpoint behaves. Defaults mimic a generous, healthy production endpoint."""

    model_config = ConfigDict(extra="forbid")

    latency_ms: float = Field(40, ge=0, description="Mean latency of a completion in milliseconds.")
    latency_sigma: float = Field(0.3, ge=0, description="Sigma of the lognormal latency jitter.")
    latency_distribution: Literal["lognormal", "exponential", "uniform", "constant"] = Field(
        "lognormal", description="Shape of the latency: lognormal (sigma latency_sigma), exponential, "
                                 "uniform on [0, 2 × mean], or constant; every one has mean latency_ms.")
    requests_per_minute: int = Field(6000, ge=1, description="Requests per minute per API key.")
    tokens_per_minute: int = Field(4_000_000, ge=1, description="Tokens per minute per API key.")
    burst_s: float = Field(60, gt=0, le=60, description="Seconds of quota a full bucket holds (60: one "
                                                        "minute; 5: a 600/min quota admits 50 at once).")
    count_rejected: bool = Field(True, description="A rejected (429) request still uses one request of "
                                                   "quota, as OpenAI documents.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Fraction of requests answered 500 or 503 "
                                                           "(half each); adds to ``faults``.")
    faults: dict[FaultKind, float] = Field(default_factory=dict, description="Fraction of admitted "
                                           "requests that meet each fault kind (see FAULT_KINDS).")
    hang_s: float = Field(600, gt=0, description="How long a 'timeout' fault holds a request before "
                                                 "dropping the connection.")
    seed: int = Field(0, description="Seed of the latency and fault RNG (not of the agent's decisions).")

    @model_validator(mode="after")
    def _rates_fit(self) -> SimulatorConfig:
        rates = self.fault_table()
        if any(r < 0 for r in rates.values()) or sum(rates.values()) > 1 + 1e-9:
            raise ValueError(f"fault rates must be ≥ 0 and sum to at most 1, got {rates}")
        return self

    def fault_table(self) -> dict[FaultKind, float]:
        """Rate of each fault kind, ``fault_rate`` split evenly between 500 and 503."""
        table: dict[FaultKind, float] = {k: float(v) for k, v in self.faults.items() if v}
        if self.fault_rate:
            for kind in ("500", "503"):
                table[kind] = table.get(kind, 0.0) + self.fault_rate / 2
        return table

    def latency_mu(self) -> float:
        """``mu`` of the lognormal whose mean is ``latency_ms`` (only meaningful when latency_ms > 0)."""
        return math.log(self.latency_ms) - self.latency_sigma**2 / 2

    def draw_latency_ms(self, rng: random.Random) -> float:
        """One latency from the configured distribution (mean ``latency_ms``)."""
        if self.latency_ms <= 0:
            return 0.0
        kind = self.latency_distribution
        if kind == "lognormal" and self.latency_sigma > 0:
            return rng.lognormvariate(self.latency_mu(), self.latency_sigma)
        if kind == "exponential":
            return rng.expovariate(1 / self.latency_ms)
        if kind == "uniform":
            return rng.uniform(0, 2 * self.latency_ms)
        return self.latency_ms
