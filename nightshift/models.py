"""Data that flows between the parts of one trial: cases, trial specs, results.

Pydantic models so every hand-off is explicit and serialisable (a result row is exactly a
``TrialResult``). No behaviour lives here beyond small derived properties.
"""

from __future__ import annotations

import hashlib
import re
from enum import StrEnum
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class TrialStatus(StrEnum):
    """How a trial ended. Only ``infra_error`` is not the agent's doing; it is excluded from scores."""

    resolved = "resolved"
    failed = "failed"
    timeout = "timeout"
    step_limit = "step_limit"
    token_limit = "token_limit"  # the variant's max_tokens per trial was spent
    cost_limit = "cost_limit"  # the variant's max_cost_usd per trial was spent
    agent_error = "agent_error"
    infra_error = "infra_error"


class CaseLimits(BaseModel):
    """How long the agent and each test may take on one case (``[limits]`` in case.toml)."""

    max_steps: int = Field(20, ge=1, description="Model turns the agent may take before it is stopped.")
    wall_clock_s: float = Field(300, gt=0, description="Seconds of agent work the agent phase may take: its "
                                "commands and the model's generation, not time waiting on the endpoint.")
    clock_ceiling_s: float | None = Field(None, gt=0, description="Clock seconds the agent phase may take, "
                                          "waiting included; reaching it is infra_error. Default: 4 × "
                                          "wall_clock_s, at least wall_clock_s + 600.")
    test_timeout_s: float = Field(30, gt=0, description="Seconds one public test may run.")
    cpus: float | None = Field(None, gt=0, description="CPUs the case's sandbox gets (a Harbor task's "
                               "[environment] cpus); None: the run's sandbox limit. Clamped to the host's cores.")
    memory_mb: int | None = Field(None, ge=64, description="Memory of the case's sandbox; None: the run's. More "
                                  "than the host has is refused by validate-suite.")
    disk_mb: int | None = Field(None, ge=1, description="Disk (/workspace + /tmp) of the case's sandbox; "
                                "None: the run's.")


class HiddenTests(BaseModel):
    """A seeded generator of stress tests, run on the grading host after the agent has finished.

    The generator is a stdlib-only Python script in the case folder, run as
    ``python3 -I GENERATOR --seed N --out DIR``; what it writes is copied into the sandbox only
    at grading time, so no trajectory can contain it (see docs/SUITES.md for what it writes).
    """

    generator: str = Field(description="Path of the generator script, relative to the case folder.")
    seed: int = Field(0, description="Seed used when no night seed is given (validate-suite, tests); a run "
                               "derives each case's seed from the manifest's hidden_seed instead.")
    timeout_s: float = Field(120, gt=0, description="Seconds the generator may run on the host.")


class CaseTiming(BaseModel):
    """A case graded by speed (``[timing]`` in case.toml): after every other test has passed, the workspace's
    function and the case's slow baseline are timed against each other, in one exclusive slot of the timing
    pool (gpu/), on seeded inputs of the night; the named FAIL_TO_PASS test passes at ``min_speedup``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("speedup", pattern=r"^[A-Za-z0-9_.-]+$", description="The FAIL_TO_PASS test the timing "
                      "step decides (listed in tests.fail_to_pass, with no test file).")
    module: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="The workspace module timed "
                        "(/workspace/<module>.py).")
    function: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", description="The function of that module timed.")
    baseline: str = Field("timing/baseline.py", description="The slow original, relative to the case folder: "
                          "timed against the candidate in the same slot, so the speedup does not depend on the host.")
    workload: str = Field("timing/workload.py", description="Defines make_args(seed) -> tuple: the timed input.")
    repeats: int = Field(5, ge=3, le=50, description="Timings of each side; their spread is the timing noise.")
    min_speedup: float = Field(5.0, gt=1, description="Baseline time / candidate time (medians) needed to pass.")
    timeout_s: float = Field(120, gt=0, description="Seconds the whole timing step may run (every repeat).")


class TimingResult(BaseModel):
    """What one timing step measured, and on which slot (a card id, or cpu<N> for a reserved core)."""

    test: str = Field("speedup", description="The FAIL_TO_PASS test this step decided (CaseTiming.name).")
    slot: str = Field(description="The slot of the timing pool that held the step.")
    host: str = Field("", description="The host whose timing pool the slot belongs to (a slot id such as cpu1 "
                      "names a core of one host only).")
    pinned: str = Field("", description="Cores a CPU slot's command was confined to; 'not pinned: why' if none.")
    waited_s: float = Field(0.0, description="Seconds waiting for a free slot.")
    started: float = Field(0.0, description="Wall-clock start of the timed command (epoch seconds, inside the hold).")
    ended: float = Field(0.0, description="Wall-clock end of the timed command, before the slot was given back.")
    affinity: list[int] = Field([], description="The CPU cores the timed processes could run on, as they saw it.")
    cuda_visible: str | None = Field(None, description="CUDA_VISIBLE_DEVICES as the timed processes saw it.")
    baseline_s: list[float] = Field([], description="Seconds of each baseline call, one per repeat.")
    candidate_s: list[float] = Field([], description="Seconds of each candidate call, one per repeat.")
    speedup: float | None = Field(None, description="median(baseline_s) / median(candidate_s); None: not measured.")
    noise: float | None = Field(None, description="Timing noise: relative spread (stdev / mean) of the per-repeat "
                                "speedups.")
    detail: str = ""


class Checkpoint(BaseModel):
    """One step of a long task; the progress score is the weighted share of checkpoints reached."""

    name: str = Field(description="Short name; without `tests`, checkpoints/check_<name>.{py,sh} decides it.")
    weight: float = Field(1.0, gt=0, description="Share of the progress score relative to the other checkpoints.")
    tests: list[str] = Field([], description="Public tests that must all pass for the checkpoint to count.")


class Sidecar(BaseModel):
    """A service container started beside the case's sandbox on a private network (a Harbor task's
    docker-compose service other than the task container); reachable inside by ``name``."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$", description="Host name the sandbox reaches it by.")
    image: str = Field(description="Docker image id the service runs (pinned at import).")
    command: list[str] | None = Field(None, description="Overrides the image's command; None: the image's own.")
    env: dict[str, str] = Field({}, description="Environment of the service.")


# names a metric may not have: the analysis already uses them for its own columns and keys
RESERVED_METRIC_NAMES = frozenset({
    "pass_rate", "score", "public_pass", "hidden_pass", "tokens", "cost", "duration_s", "run_id", "arm", "variant",
    "model_version", "case_id", "seed", "domain", "split", "status", "infra", "trials", "cases", "infra_errors", "n",
    "trial_id", "reason"})


class MetricSpec(BaseModel):
    """One entry of a ``metrics`` list (suite.toml or the experiment file); a plain string is its ``use``."""

    model_config = ConfigDict(extra="forbid")
    NAME: ClassVar[re.Pattern[str]] = re.compile(r"[a-z][a-z0-9_]{0,62}")

    use: str = Field(description="A built-in metric name (nightshift plugins), an entry point of the "
                     "'nightshift.metrics' group, or 'module:Class'.")
    name: str | None = Field(None, pattern=r"^[a-z][a-z0-9_]{0,62}$", description="Column name: the row "
                             "carries the value as 'score.<name>'; default: the metric's own name.")
    settings: dict[str, Any] = Field({}, description="Settings the metric class takes (its fields).")

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        return {"use": data} if isinstance(data, str) else data


class ScannerSpec(BaseModel):
    """One entry of an experiment's ``scanners`` list; a plain string is its ``use``."""

    model_config = ConfigDict(extra="forbid")

    use: str = Field(description="A built-in scanner name (nightshift plugins), an entry point of the "
                     "'nightshift.scanners' group, or 'module:Class'.")
    settings: dict[str, Any] = Field({}, description="Settings the scanner class takes (its fields).")

    @model_validator(mode="before")
    @classmethod
    def _short_form(cls, data: Any) -> Any:
        return {"use": data} if isinstance(data, str) else data


Severity = Literal["info", "suspect", "cheat"]
SEVERITIES: tuple[Severity, ...] = ("info", "suspect", "cheat")  # in rising order


class Flag(BaseModel):
    """What a scanner saw in one finished trial: how it may have won, and where (docs/SCANNERS.md)."""

    model_config = ConfigDict(extra="forbid")

    scanner: str = Field("", description="The scanner that raised it (filled in by nightshift).")
    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,62}$", description="What was seen, e.g. test_deleted.")
    severity: Severity = Field(description="info: worth knowing; suspect: read the trial; cheat: a win the wrong way.")
    explanation: str = Field(max_length=300, description="One line saying what was seen and why it matters.")
    step: int | None = Field(None, description="The trajectory step of the evidence; None: it is in the diff.")
    path: str = Field("", description="The workspace file of the evidence (diff flags), relative to /workspace.")
    line: str = Field("", max_length=500, description="The evidence itself: the command, or the diff line.")


class Case(BaseModel):
    """One problem of a suite, loaded from its folder (see suites/README.md for the layout)."""

    id: str
    suite: str
    domain: str
    split: Literal["public", "heldout", "commercial"] = Field("public", description="Who may run the case and "
                                                              "what is protected (docs/SPLITS.md).")
    instruction: str
    root: Path
    fail_to_pass: list[str]
    pass_to_pass: list[str] = []
    limits: CaseLimits = CaseLimits()
    content_hash: str = Field(description="sha256 over every file of the case folder.")
    image: str | None = Field(None, description="Sandbox image the case needs; None: the run's image.")
    workdir: str | None = Field(None, description="A second path where the workspace is mounted (a Harbor "
                                "task's WORKDIR, e.g. /app), so the task's own paths reach it.")
    invalid: str | None = Field(None, description="Why the case can never be graded here (e.g. its tests need "
                                "the network); validate-suite reports it as an invalid case.")
    sidecars: list[Sidecar] = Field([], description="Service containers the case needs beside its sandbox "
                                    "(docker backend only), from [[sidecars]] in case.toml.")
    hidden: HiddenTests | None = Field(None, description="Generator of hidden stress tests, if the case has one.")
    checkpoints: list[Checkpoint] = Field([], description="Progress checkpoints (long-horizon cases).")
    test_runner: str | None = Field(None, description="One script in tests/ that runs every listed test at "
                                                      "once and reports each by name (SWE-bench style).")
    test_log_format: Literal["pytest", "nightshift", "harbor", "junit"] = Field(
        "nightshift", description="How test_runner reports; 'harbor': the verifier wrapper's result line; 'junit': "
                                  "a junit XML report at $NIGHTSHIFT_JUNIT plus the runner's exit code.")
    excluded_tests: list[str] = Field([], description="Tests found flaky on the oracle by validate-suite; run, "
                                                      "reported, never scored.")
    metrics: list[MetricSpec] = Field([], description="The suite's metrics (suite.toml 'metrics'), beyond "
                                      "resolved and progress.")
    timing: CaseTiming | None = Field(None, description="How the case is graded by speed ([timing]), if it is.")
    sealed: bool = Field(False, description="Stored encrypted (nightshift seal): ``root`` is the sealed folder "
                         "and ``instruction`` is empty; suites.loader.open_case gives an unsealed copy for one trial.")
    opaque_id: str | None = Field(None, description="What a protected case is called outside its run folder "
                                  "(Prefect names and logs, the audit log); None for public cases.")

    @property
    def protected(self) -> bool:
        """Held-out or commercial: encrypted at rest, granted, audited, redacted, never networked."""
        return self.split != "public"

    @property
    def label(self) -> str:
        """The case's name wherever others may read it: its opaque id when protected (a case not sealed has no key
        to make one with, so a plain hash of its id: it is in the clear anyway)."""
        if not self.protected:
            return self.id
        return self.opaque_id or f"{self.split}-{hashlib.sha256(f'{self.suite}/{self.id}'.encode()).hexdigest()[:12]}"

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
    """One graded check: a public test, one hidden stress test, or a progress checkpoint."""

    __test__ = False  # not a pytest class
    name: str
    kind: Literal["fail_to_pass", "pass_to_pass", "hidden", "checkpoint"]
    passed: bool
    duration_s: float
    detail: str = ""
    excluded: bool = Field(False, description="Flaky on the oracle: reported, not counted.")
    weight: float = Field(1.0, description="Checkpoint weight in the progress score.")
    reward: float | None = Field(None, description="Partial credit in [0, 1] a test reported (Harbor reward files).")
    scores: dict[str, float] = Field({}, description="Named rewards a test reported (every numeric key of a "
                                     "Harbor reward.json).")
    output: str = Field("", exclude=True, description="The test's whole captured output (stdout, then stderr): "
                        "kept in validation.json, left out of every other dump (grades/, rows) to keep them small.")


class GradeResult(BaseModel):
    """Everything the grader found; resolved needs every counted public and hidden test to pass.

    ``scores`` are the named metrics of the trial (graders/metric.py): a grader may set its own (a
    Harbor reward file, say), and the trial's metrics add theirs; each becomes a ``score.<name>`` column.
    """

    tests: list[TestOutcome]
    hidden_seed: int | None = Field(None, description="Seed the hidden-test generator got (None: no hidden tests).")
    hidden_digest: str = Field("", description="sha256 of the generated hidden tests: a re-grade with the same "
                                               "seed must reproduce it.")
    scores: dict[str, float | None] = Field({}, description="Metric name -> value (None: no value for this trial).")
    messages: dict[str, str] = Field({}, description="Metric name -> what the metric said about its value.")
    timing: TimingResult | None = Field(None, description="The timing step of a case graded by speed.")

    def _count(self, kind: str) -> tuple[int, int]:
        chosen = [t for t in self.tests if t.kind == kind and not t.excluded]
        return sum(t.passed for t in chosen), len(chosen)

    @property
    def hidden(self) -> tuple[int, int]:
        return self._count("hidden")

    @property
    def checkpoints(self) -> tuple[int, int]:
        return self._count("checkpoint")

    @property
    def excluded(self) -> list[str]:
        return [t.name for t in self.tests if t.excluded]

    @property
    def progress(self) -> float:
        """Weighted share of checkpoints reached; without checkpoints, the share of FAIL_TO_PASS and
        hidden tests passed (rewards count as partial passes), scaled down by PASS_TO_PASS regressions. A case
        graded by speed that was timed (correct): its timing test's reward, the speedup on a log scale."""
        if self.all_passed:
            return 1.0
        counted = [t for t in self.tests if not t.excluded]
        if self.timing is not None:  # timed, so every other test passed: how far toward the speedup it needs
            timed = next((t for t in counted if t.name == self.timing.test and t.kind == "fail_to_pass"), None)
            if timed is not None:
                return round(timed.reward or 0.0, 6)
        marks = [t for t in counted if t.kind == "checkpoint"]
        if marks:
            return round(sum(t.weight for t in marks if t.passed) / sum(t.weight for t in marks), 6)
        goals = [t for t in counted if t.kind in ("fail_to_pass", "hidden")]
        if not goals:
            return 0.0
        share = sum(t.reward if t.reward is not None else float(t.passed) for t in goals) / len(goals)
        kept, total = self.p2p
        return round(share * (kept / total if total else 1.0), 6)

    @property
    def f2p(self) -> tuple[int, int]:
        return self._count("fail_to_pass")

    @property
    def p2p(self) -> tuple[int, int]:
        return self._count("pass_to_pass")

    @property
    def all_passed(self) -> bool:
        scored = [t for t in self.tests if t.kind != "checkpoint" and not t.excluded]
        return bool(scored) and all(t.passed for t in scored)

    def row_fields(self) -> dict[str, int | float | str | None]:
        """The test counts and progress a result row carries (TrialResult's fields of the same names)."""
        (f2p, f2p_n), (p2p, p2p_n), (hid, hid_n), (cp, cp_n) = self.f2p, self.p2p, self.hidden, self.checkpoints
        return {"f2p_passed": f2p, "f2p_total": f2p_n, "p2p_passed": p2p, "p2p_total": p2p_n, "hidden_passed": hid,
                "hidden_total": hid_n, "checkpoints_passed": cp, "checkpoints_total": cp_n,
                "excluded_tests": len(self.excluded), "progress": self.progress, "hidden_seed": self.hidden_seed,
                "hidden_digest": self.hidden_digest, **self._timing_fields()}

    def _timing_fields(self) -> dict[str, str | float | None]:
        timing = self.timing
        if timing is None:
            return {}
        return {"timing_slot": timing.slot, "timing_host": timing.host, "timing_start": timing.started,
                "timing_end": timing.ended,
                "timing_s": round(max(0.0, timing.ended - timing.started), 3),
                "timing_wait_s": round(timing.waited_s, 3), "timing_noise": timing.noise}

    @staticmethod
    def ungraded_fields(case: Case) -> dict[str, int | float]:
        """What a row carries when the trial was never graded: nothing passed, the case's own totals."""
        return {"f2p_total": len(case.fail_to_pass), "p2p_total": len(case.pass_to_pass),
                "checkpoints_total": len(case.checkpoints)}


class AgentOutcome(BaseModel):
    """How the agent phase ended, with the accounting the result row needs."""

    ended_by: Literal["submitted", "step_limit", "token_limit", "cost_limit", "timeout", "agent_error", "infra_error"]
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
    infra_kind: str = Field("", description="For infra_error: sandbox_create, endpoint, harness or grader.")
    score: float = Field(description="1.0 when resolved, else 0.0.")
    reason: str = ""
    f2p_passed: int = 0
    f2p_total: int = 0
    p2p_passed: int = 0
    p2p_total: int = 0
    hidden_passed: int = Field(0, description="Hidden stress tests (generated at grade time) passed.")
    hidden_total: int = Field(0, description="Hidden stress tests run; public counts stay in f2p_*/p2p_*.")
    checkpoints_passed: int = Field(0, description="Progress checkpoints reached.")
    checkpoints_total: int = Field(0, description="Progress checkpoints of the case.")
    excluded_tests: int = Field(0, description="Tests run but not scored: flaky on the oracle (validate-suite).")
    hidden_seed: int | None = Field(None, description="Seed of this case's hidden tests (from the night's "
                                                      "hidden_seed and the case id); None: no hidden tests ran.")
    hidden_digest: str = Field("", description="sha256 of the hidden tests generated for hidden_seed; re-grading "
                                               "with that seed reproduces them exactly.")
    progress: float = Field(0.0, ge=0, le=1, description="Partial credit in [0, 1]: checkpoints or test shares.")
    steps: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    rate_limited: int = 0
    retry_wait_s: float = 0.0
    quota_wait_s: float = Field(0.0, description="Seconds blocked on the model quota (gateway buckets, API slot).")
    cost_usd: float = Field(0.0, description="Estimated cost from the experiment's price table (0 if unpriced).")
    working_s: float = Field(0.0, description="Agent working time: agent phase minus waiting_s (its time limit "
                                              "counts this).")
    waiting_s: float = Field(0.0, description="Seconds waiting on the model endpoint: quota, slot, backoff, "
                                              "429 pauses and failed calls.")
    agent_s: float = Field(0.0, description="Clock time of sandbox start and agent phase, waiting included.")
    grade_s: float = 0.0
    scan_s: float = Field(0.0, description="Seconds the run's scanners took over this trial (docs/SCANNERS.md).")
    scan_calls: int = Field(0, description="Model calls the scanners made (the judge), through the night's gateway; "
                            "not in model_calls, which are the agent's.")
    scan_input_tokens: int = Field(0, description="Input tokens of those calls.")
    scan_output_tokens: int = Field(0, description="Output tokens of those calls.")
    scan_cost_usd: float = Field(0.0, description="Their cost from the price table; the trial's whole cost is "
                                 "cost_usd + scan_cost_usd.")
    duration_s: float = 0.0
    started_at: str = ""
    finished_at: str = ""
    timing_slot: str = Field("", description="The timing-pool slot (card id, or cpu<N>) this trial's timing step "
                             "held; empty: no timing step ran.")
    timing_host: str = Field("", description="The host of that slot: slots are exclusive per host.")
    timing_start: float | None = Field(None, description="Wall-clock start of the timing step (epoch seconds).")
    timing_end: float | None = Field(None, description="Wall-clock end of the timing step (epoch seconds).")
    timing_s: float = Field(0.0, description="Seconds the timing step held its slot (the planner's GPU work).")
    timing_wait_s: float = Field(0.0, description="Seconds the timing step waited for a free slot.")
    timing_noise: float | None = Field(None, description="Relative spread of the repeated speedups (stdev / mean).")
    reused_from: str = Field("", description="The run whose trial this row reuses: answered from the trial cache "
                             "(same trial id, no model call), its trajectory, grade and diff linked from that run's "
                             "folder. Empty: the trial ran in this run.")
    scores: dict[str, float | None] = Field({}, description="Named metrics; the Parquet file carries each as a "
                                            "'score.<name>' column (null where a trial has no value).")
    score_messages: dict[str, str] = Field({}, description="What each metric said; kept in the per-trial "
                                           "JSON file, not in Parquet.")
    flags: list[Flag] = Field([], description="What the run's scanners saw in this trial (docs/SCANNERS.md); "
                              "Parquet carries them as a list column 'flags' and the highest severity as 'flag'.")
