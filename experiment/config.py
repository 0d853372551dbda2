"""Experiment file schema (YAML). Every field is documented; errors name the file, field and fix."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from nightshift.contracts import SandboxLimits

_REPO_ROOT = Path(__file__).resolve().parent.parent
BUILTIN_SUITE = _REPO_ROOT / "suites" / "builtin"


class ExperimentError(ValueError):
    """A problem with the experiment file, phrased for the person who wrote it."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HarnessSettings(_Strict):
    """How the reference agent loop behaves for one variant."""

    system_prompt: str = Field(
        "You are a careful software engineer working in a Linux sandbox. Use the bash tool to inspect "
        "and change files in /workspace. When the task is done, call submit.",
        description="System message sent first in every trial.")
    tools: list[Literal["bash", "submit"]] = Field(["bash", "submit"], description="Tools offered to the model.")
    max_steps: int | None = Field(None, ge=1, description="Model turns per trial; unset uses the case's limit.")
    temperature: float = Field(0.0, ge=0, le=2, description="Sampling temperature sent with every call.")
    max_tokens: int = Field(1024, ge=1, description="max_tokens for each model call.")
    command_timeout_s: float = Field(60, gt=0, description="Seconds one bash tool call may run.")

    @field_validator("tools")
    @classmethod
    def _needs_submit(cls, tools: list[str]) -> list[str]:
        if "submit" not in tools:
            raise ValueError("the agent needs the 'submit' tool to finish; add 'submit' to tools")
        return tools


class Variant(_Strict):
    """What is being compared: a model plus harness settings."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="Short label used in results and reports.")
    model: str = Field(description="Model name as the endpoint knows it (e.g. sim-strong).")
    harness: HarnessSettings = HarnessSettings()


class SimulatorSettings(_Strict):
    """The embedded model simulator, started by the flow when model.base_url is unset."""

    latency_ms: float = Field(40, ge=0, description="Mean latency of a completion.")
    requests_per_minute: int = Field(6000, ge=1, description="Quota the simulator enforces per API key.")
    tokens_per_minute: int = Field(4_000_000, ge=1, description="Token quota the simulator enforces per key.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Fraction of requests answered with a 5xx.")


class ModelEndpoint(_Strict):
    """Where model calls go: any OpenAI-compatible endpoint, or the embedded simulator."""

    base_url: str | None = Field(None, description="OpenAI-compatible base URL; unset starts the simulator.")
    api_key_env: str = Field("NIGHTSHIFT_API_KEY", description="Environment variable holding the API key.")
    max_retries: int = Field(6, ge=0, description="Retries per call on 429/5xx/timeouts before infra_error.")
    timeout_s: float = Field(120, gt=0, description="Seconds to wait for one response.")
    simulator: SimulatorSettings = SimulatorSettings()


class SandboxSettings(_Strict):
    backend: Literal["bubblewrap", "docker"] = Field("bubblewrap", description="Where trial commands run.")
    image: str = Field("host", description="docker: image id or name@digest; bubblewrap: 'host' or a rootfs path.")
    limits: SandboxLimits = SandboxLimits()


class Experiment(_Strict):
    """One experiment file: what to run tonight and how."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="Names the run folder.")
    suites: list[str] = Field(["builtin"], min_length=1,
                              description="'builtin' or suite folders relative to this file.")
    cases: list[str] | None = Field(None, description="Only these case ids (default: every case).")
    variants: list[Variant] = Field(min_length=1, description="The models/harness settings compared.")
    seeds: list[int] = Field([1, 2], min_length=1, description="One trial per case × variant × seed.")
    concurrency: int = Field(4, ge=1, le=1024,
                             description="Trials in flight at once in this process.")
    infra_retries: int = Field(2, ge=0, le=10, description="Retries of a trial that ended in infra_error.")
    sandbox: SandboxSettings = SandboxSettings()
    model: ModelEndpoint = ModelEndpoint()
    output_dir: Path = Field(Path("runs"), description="Where run folders are written (relative to this file).")

    @model_validator(mode="after")
    def _unique(self) -> Experiment:
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names):
            raise ValueError(f"variant names must be unique, got {names}; rename the duplicates")
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"seeds must be unique, got {self.seeds}; remove the repeats")
        return self

    def suite_paths(self, base: Path) -> list[Path]:
        return [BUILTIN_SUITE if s == "builtin" else (base / s).resolve() for s in self.suites]


def load_experiment(path: Path) -> Experiment:
    """Read and validate an experiment file, turning pydantic errors into one readable message."""
    path = Path(path)
    if not path.is_file():
        raise ExperimentError(f"{path}: no such experiment file; pass the path of a YAML file "
                              f"(see experiments/default.yaml)")
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise ExperimentError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(raw, dict):
        raise ExperimentError(f"{path}: expected a mapping of fields at the top level, got {type(raw).__name__}")
    try:
        exp = Experiment.model_validate(raw)
    except ValidationError as exc:
        lines = [f"{path}: invalid experiment file"]
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or "(top level)"
            lines.append(f"  field '{field}': {err['msg']}" + _hint(err))
        raise ExperimentError("\n".join(lines)) from None
    # every relative path in the file is read relative to the file itself, wherever it is run from
    exp.output_dir = (path.parent.resolve() / exp.output_dir).resolve()
    for suite in exp.suite_paths(path.parent):
        if not suite.is_dir():
            raise ExperimentError(f"{path}: field 'suites': suite folder {suite} does not exist; "
                                  f"use 'builtin' or a path relative to the experiment file")
    return exp


def _hint(err: dict) -> str:
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return " (unknown field: check the spelling against experiments/default.yaml)"
    if kind == "missing":
        return " (required: add it)"
    return ""
