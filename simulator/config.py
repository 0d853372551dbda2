"""Settings of one simulator instance: latency, quota, fault injection and the RNG seed."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field


class SimulatorConfig(BaseModel):
    """How the simulated endpoint behaves. Defaults mimic a generous, healthy production endpoint."""

    model_config = ConfigDict(extra="forbid")

    latency_ms: float = Field(40, ge=0, description="Mean latency of a completion in milliseconds.")
    latency_sigma: float = Field(0.3, ge=0, description="Sigma of the lognormal latency jitter.")
    requests_per_minute: int = Field(6000, ge=1, description="Requests per minute per API key.")
    tokens_per_minute: int = Field(4_000_000, ge=1, description="Tokens per minute per API key.")
    count_rejected: bool = Field(True, description="A rejected (429) request still uses one request of "
                                                   "quota, as OpenAI documents.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Fraction of requests answered 500 or 503.")
    seed: int = Field(0, description="Seed of the latency and fault RNG (not of the agent's decisions).")

    def latency_mu(self) -> float:
        """``mu`` of the lognormal whose mean is ``latency_ms`` (only meaningful when latency_ms > 0)."""
        return math.log(self.latency_ms) - self.latency_sigma**2 / 2
