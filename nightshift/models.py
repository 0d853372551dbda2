"""Data that flows between the parts of one trial: cases, trial specs, results.

Pydantic models so every hand-off is explicit and serialisable (a result row is exactly a
``TrialResult``). No behaviour lives here beyond small derived properties.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field


class TrialStatus(StrEnum):
    """How a trial ended. Only ``infra_error`` is not the agent's doing; it is excluded from scores."""

    resolved = "resolved"
    failed = "failed"
    timeout = "timeout"
    step_limit = "step_limit"
    agent_error = "agent_error"
    infra_error = "infra_error"


class CaseLimits(BaseModel):
    max_steps: int = Field(20, ge=1, description="Model turns the agent may take before it is stopped.")
    wall_clock_s: float = Field(300, gt=0, description="Seconds the agent phase may take in total.")
    test_timeout_s: float = Field(30, gt=0, description="Seconds one public test may run.")


class Case(BaseModel):
    """One problem of a suite, loaded from its folder (see suites/README.md for the layout)."""

    id: str
    suite: str
    domain: str
    split: Literal["public", "heldout"] = "public"
    instruction: str
    root: Path
    fail_to_pass: list[str]
    pass_to_pass: list[str] = []
    limits: CaseLimits = CaseLimits()
    content_hash: str = Field(description="sha256 over every file of the case folder.")

    @property
    def workspace_dir(self) -> Path:
        return self.root / "workspace"

    @property
    def tests_dir(self) -> Path:
        return self.root / "tests"

    @property
    def solution_script(self) -> Path:
        return self.root / "solution" / "solve.sh"


class ExecResult(BaseModel):
    """What one command in a sandbox did. Output is capped; ``*_dropped`` counts what was cut."""

    exit_code: int
    stdout: str
    stderr: str
    timed_out: bool = False
    duration_s: float = 0.0
    stdout_dropped: int = 0
    stderr_dropped: int = 0


class TestOutcome(BaseModel):
    __test__ = False  # not a pytest class
    name: str
    kind: Literal["fail_to_pass", "pass_to_pass"]
    passed: bool
    duration_s: float
    detail: str = ""


class GradeResult(BaseModel):
    tests: list[TestOutcome]

    def _count(self, kind: str) -> tuple[int, int]:
        chosen = [t for t in self.tests if t.kind == kind]
        return sum(t.passed for t in chosen), len(chosen)

    @property
    def f2p(self) -> tuple[int, int]:
        return self._count("fail_to_pass")

    @property
    def p2p(self) -> tuple[int, int]:
        return self._count("pass_to_pass")

    @property
    def all_passed(self) -> bool:
        return bool(self.tests) and all(t.passed for t in self.tests)


class AgentOutcome(BaseModel):
    """How the agent phase ended, with the accounting the result row needs."""

    ended_by: Literal["submitted", "step_limit", "timeout", "agent_error", "infra_error"]
    reason: str = ""
    steps: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    rate_limited: int = 0
    retry_wait_s: float = 0.0


class TrialResult(BaseModel):
    """One row of the run's Parquet file: one attempt of one case by one variant with one seed."""

    trial_id: str
    run_id: str
    case_id: str
    suite: str
    domain: str
    split: str
    variant: str
    model: str
    model_version: str
    seed: int
    status: TrialStatus
    score: float = Field(description="1.0 when resolved, else 0.0.")
    reason: str = ""
    f2p_passed: int = 0
    f2p_total: int = 0
    p2p_passed: int = 0
    p2p_total: int = 0
    steps: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    rate_limited: int = 0
    retry_wait_s: float = 0.0
    agent_s: float = 0.0
    grade_s: float = 0.0
    duration_s: float = 0.0
    started_at: str = ""
    finished_at: str = ""
