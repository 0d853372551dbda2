"""Experiment file schema (YAML). Every field is documented; errors name the file, field and fix."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from nightshift.agent_entry import AgentEntry
from nightshift.contracts import SandboxLimits
from nightshift.errors import ConfigurationError
from nightshift.models import MetricSpec, ScannerSpec
from nightshift.validation_messages import error_lines


class ExperimentError(ConfigurationError, ValueError):
    """A problem with the experiment file, phrased for the person who wrote it."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


HARNESS_SPEC_KEYS = {"kind", "entrypoint", "settings", "install", "run", "env", "log", "max_steps", "name",
                     "version", "entry"}


class AgentLog(_Strict):
    """Where a command harness's agent writes its own log, and in which format nightshift maps it onto
    trajectory events at the end of the trial (harnesses/agent_logs.py)."""

    format: Literal["codex", "claude-code"] = Field(description="'codex': Codex CLI's session JSONL; "
                                                    "'claude-code': Claude Code's JSONL transcript.")
    path: str = Field(description="A folder under /tmp inside the sandbox; every *.jsonl below it is read "
                      "(e.g. /tmp/codex-home/sessions).")

    @field_validator("path")
    @classmethod
    def _under_tmp(cls, path: str) -> str:
        if not path.startswith("/tmp/") or ".." in path.split("/"):
            raise ValueError(f"{path!r} is not a folder under /tmp: nightshift reads an agent's log only from the "
                             f"sandbox's /tmp; point the agent's log there (e.g. CODEX_HOME=/tmp/codex-home) and set "
                             f"path to it")
        return path


class HarnessSpec(_Strict):
    """The agent under evaluation (docs/HARNESSES.md): nightshift's reference loop, a Python harness, or a
    command run inside the sandbox that reaches the model only through the per-trial proxy."""

    kind: Literal["reference", "python", "command", "installed"] = Field(
        "reference", description="'reference': nightshift's tool loop; 'python': a harness class named by "
        "entrypoint; 'command': an agent CLI run in the sandbox (install + run); 'installed': an agent of the "
        "catalogue, by name and version.")
    entrypoint: str | None = Field(None, description="python: a name in the nightshift.harnesses entry-point "
                                   "group, or 'module:Class' importable from the project folder.")
    settings: dict[str, Any] = Field({}, description="The harness's own settings, validated by its pydantic "
                                     "Settings model.")
    install: list[str] = Field([], description="command: shell commands run once, as root with network, into a "
                               "derived sandbox image cached by content (e.g. pip install agent==1.2.3).")
    run: str | None = Field(None, description="command: the agent's non-interactive invocation; {model}, "
                            "{instruction_file}, {base_url} and {workspace} are filled in.")
    env: dict[str, str] = Field({}, description="command: extra environment for the run (never a real key).")
    log: AgentLog | None = Field(None, description="command: the agent's own log, collected at the end of the "
                                 "trial and mapped onto trajectory events (agent_log lines).")
    max_steps: int | None = Field(None, ge=1, description="Model calls per trial, enforced by nightshift; unset: "
                                  "settings.max_steps (reference) or the case's limit.")
    name: str | None = Field(None, description="installed: the catalogue agent (`nightshift plugins` lists them "
                             "under agents).")
    version: str | None = Field(None, description="installed: one of the versions its entry pins.")
    entry: AgentEntry | None = Field(None, description="installed: the experiment's own entry of that name, "
                                     "copied here from its top-level `agents:` block.")

    @model_validator(mode="before")
    @classmethod
    def _version_as_text(cls, data: object) -> object:
        """`version: 0.86` in YAML is a float: the version is the text the user wrote."""
        if isinstance(data, dict) and isinstance(data.get("version"), int | float):
            data = {**data, "version": str(data["version"])}
        return data

    @model_validator(mode="after")
    def _kind_fields(self) -> HarnessSpec:
        if self.kind == "python" and not self.entrypoint:
            raise ValueError("kind 'python' needs entrypoint: 'module:Class' or a registered harness name")
        if self.kind == "command" and not self.run:
            raise ValueError("kind 'command' needs run: the agent's non-interactive command line")
        if self.kind == "installed":
            if not self.name or not self.version:
                raise ValueError("kind 'installed' needs name and version: an agent of the catalogue and one of "
                                 "its pinned versions (`nightshift plugins` lists them under agents)")
            if self.run or self.entrypoint:
                raise ValueError("kind 'installed' takes its run line from the catalogue; remove run/entrypoint "
                                 "(or use kind 'command' with your own)")
            if self.log:
                raise ValueError("log belongs to kind 'command'; an installed agent's log is its entry's "
                                 "(log and mapper in the agents: block)")
        elif self.kind != "command" and (self.install or self.run or self.env or self.log):
            raise ValueError(f"install/run/env/log belong to kind 'command' (install/env also to 'installed'), "
                             f"not {self.kind!r}; remove them")
        if self.kind != "installed" and (self.name or self.version or self.entry):
            raise ValueError(f"name/version belong to kind 'installed', not {self.kind!r}; remove them")
        return self


class Variant(_Strict):
    """What is being compared: a model plus the harness that drives it."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="Short label used in results and reports.")
    model: str = Field(description="Model name as the endpoint knows it (e.g. sim-strong).")
    harness: HarnessSpec = HarnessSpec()
    max_tokens: int | None = Field(None, ge=1, description="Tokens (input + output) one trial may use in total; "
                                   "past it the trial ends token_limit. Unset: no limit.")
    max_cost_usd: float | None = Field(None, gt=0, description="Dollars one trial may spend (model.prices); past "
                                       "it the trial ends cost_limit. Unset: no limit.")

    @model_validator(mode="before")
    @classmethod
    def _legacy_reference_settings(cls, data: object) -> object:
        """`harness: {max_steps: 30}` (the reference loop's settings, as before harness kinds) still works."""
        if isinstance(data, dict):
            harness = data.get("harness")
            if isinstance(harness, dict) and harness and not set(harness) & HARNESS_SPEC_KEYS - {"max_steps"}:
                data = {**data, "harness": {"kind": "reference", "settings": harness}}
        return data


class SimulatorSettings(_Strict):
    """The embedded model simulator, started by the flow when model.base_url is unset."""

    latency_ms: float = Field(40, ge=0, description="Mean latency of a completion.")
    requests_per_minute: int = Field(6000, ge=1, description="Quota the simulator enforces per API key.")
    tokens_per_minute: int = Field(4_000_000, ge=1, description="Token quota the simulator enforces per key.")
    fault_rate: float = Field(0.0, ge=0, le=1, description="Fraction of requests answered with a 5xx.")


class ModelPrice(_Strict):
    """What one model costs, in US dollars per million tokens."""

    input_per_mtok: float = Field(ge=0, description="USD per million prompt (input) tokens.")
    output_per_mtok: float = Field(ge=0, description="USD per million completion (output) tokens.")


class ModelEndpoint(_Strict):
    """Where model calls go: any OpenAI-compatible endpoint, or the embedded simulator."""

    base_url: str | None = Field(None, description="OpenAI-compatible base URL; unset starts the simulator.")
    api_key_env: str = Field("NIGHTSHIFT_API_KEY", description="Environment variable holding the API key "
                             "(read by every process that calls the model: the flow and each worker).")
    api_key_secret: str | None = Field(None, description="Name of a Prefect Secret block holding the API key, "
                                       "read when the api_key_env variable is not set (for workers that do not "
                                       "have the key in their environment). The key itself is never a flow "
                                       "parameter, a result, an artifact or a log line.")
    max_retries: int = Field(6, ge=0, description="Retries per call on 429/5xx/timeouts before infra_error.")
    timeout_s: float = Field(120, gt=0, description="Seconds to wait for one response.")
    requests_per_minute: int | None = Field(None, ge=1, description="Requests/min quota of the API key; unset: "
                                            "learned from the endpoint's x-ratelimit-limit-requests header.")
    tokens_per_minute: int | None = Field(None, ge=1, description="Tokens/min quota of the API key; unset: "
                                          "learned from the endpoint's x-ratelimit-limit-tokens header.")
    share: float = Field(1.0, gt=0, le=1, description="Fraction of the key's quota this process uses; give each "
                         "process (or host) that shares the key its share, summing to at most 1. With a "
                         "quota_store it applies only while the store is unreachable.")
    quota_store: str | None = Field(None, description="redis://host:port/db of a Redis server every worker of the "
                                    "key reaches: the whole fleet then reserves from one shared RPM/TPM budget "
                                    "(docs/GATEWAY.md). Unset: this process shapes alone, at its share.")
    concurrency_limit: str | None = Field(None, description="Name of a Prefect global concurrency limit of which "
                                          "each trial holds one slot while it calls the model (created with "
                                          "'concurrency' slots if missing; lower it in the UI to throttle). "
                                          "Unset: no Prefect limit (the gateway still shapes every request).")
    protocol: Literal["chat", "responses", "anthropic"] = Field(
        "chat", description="Wire protocol of the endpoint at base_url: 'chat' (OpenAI Chat Completions), "
        "'responses' (OpenAI Responses) or 'anthropic' (Anthropic Messages; the key goes in x-api-key). Whatever "
        "it is, agents in the sandbox may speak any of the three to the proxy (docs/GATEWAY.md). Pinned in the "
        "manifest.")
    prices: dict[str, ModelPrice] = Field({}, description="Price per model name (a variant's model or the "
                                          "served version), for each trial's cost_usd; unpriced models cost 0.")
    simulator: SimulatorSettings = SimulatorSettings()


class AlertSettings(BaseModel, extra="forbid"):
    """``alerts:`` in an experiment file: when infrastructure failures make a night untrustworthy."""

    infra_share: float = Field(0.2, gt=0, lt=1, description="Share of infra_error trials among the last `window` "
                               "above which an alert is raised; a whole night above it is marked not trustworthy.")
    window: int = Field(50, ge=1, description="How many of the latest trials the share is taken over.")
    notify_block: str | None = Field(None, description="A saved Prefect notification block fired on an alert, "
                                     "as 'block-type-slug/name' (e.g. 'slack-webhook/nightly', "
                                     "'custom-webhook-notification/ops'); unset: log and artifact only.")


class AnalysisSettings(_Strict):
    """``analysis:`` in an experiment file: how the night's results are read (not a pin: no trial depends on it)."""

    broken_arm_fraction: float = Field(0.5, ge=0, lt=1, description="An arm with more than this share of its "
                                       "trials ended agent_error or infra_error is a broken arm: the run says so "
                                       "with the most common reason, its verdicts read 'broken arm', and `nightshift "
                                       "run`/`compare` exit 5 (docs/ANALYSIS.md).")


class FlagPolicy(_Strict):
    """``flags:`` in an experiment file: what a scanner's flag does to a trial's score (docs/SCANNERS.md)."""

    cheat: Literal["report", "fail"] = Field("report", description="'report': the flag is recorded and counted, "
                                             "the score stands; 'fail': a trial flagged cheat scores 0 (status "
                                             "failed), the flag named as its reason.")
    suspect: Literal["report", "fail"] = Field("report", description="The same for 'suspect' flags (strict: "
                                               "every suspect trial fails).")

    def actions(self) -> dict[str, Literal["report", "fail"]]:
        return {"cheat": self.cheat, "suspect": self.suspect}

    def is_default(self) -> bool:
        return self == FlagPolicy()


class SandboxSettings(_Strict):
    backend: str = Field("bubblewrap", description="Where trial commands run: 'bubblewrap', 'docker', an "
                         "installed backend (nightshift plugins lists them) or 'module:Class'.")
    image: str = Field("host", description="docker: an image id (sha256:...), name:tag@sha256:<id or registry "
                       "digest> (refused if the name resolves elsewhere), or name:tag (its id is pinned at start); "
                       "bubblewrap: 'host' or a rootfs path (scripts/build_sandbox_image.py builds both).")
    limits: SandboxLimits = SandboxLimits()


class ScheduleSettings(_Strict):
    """The order trials run in and the night's predicted length (planner/)."""

    history: Literal["auto", "none"] | list[str] = Field(
        "auto", description="Earlier nights to learn per-case durations and tokens from: 'auto' (the newest "
        "earlier run of this experiment in output_dir), 'none', or Parquet files / run folders relative to this file.")
    order: Literal["longest-first", "listed"] = Field(
        "longest-first", description="'longest-first': cases predicted longest start first, each case's variants "
        "together (needs history; without it the listed order is kept); 'listed': seed, case, variant as listed.")


class GpuSettings(_Strict):
    """The host's timing pool (gpu/): the slots that timing steps of cases graded by speed hold, one step per slot
    at a time. Its cards where it has any; otherwise reserved CPU cores, so the same exclusive path runs everywhere.
    """

    cards: int | list[str] | Literal["auto"] = Field(
        "auto", description="A count (ids 0..N-1), a list of ids as CUDA_VISIBLE_DEVICES takes them ('0', "
        "'GPU-<uuid>'), or 'auto' (nvidia-smi; none without it). 0: no cards, CPU-core slots only.")
    stand_in: bool = Field(False, description="Stand-in cards with no device behind them (tests, machines "
                           "without GPUs).")
    timing_cores: list[int] | Literal["auto"] = Field(
        "auto", description="Where there are no cards: the CPU cores that are the timing slots, each timing step "
        "pinned to one (its sandbox's cpuset). 'auto': the last core this process may use.")
    lock_dir: Path = Field(Path("/tmp/nightshift-gpu"), description="One lock file per slot, shared by every "
                           "process on a host: two flow runs on one machine never time on the same slot, and "
                           "the kernel frees the slot of a killed process.")


class ShardSettings(_Strict):
    """Run the trials as child flow runs on a Prefect work pool (flows/shards.py) instead of in this process."""

    count: int = Field(ge=1, le=256, description="Child flow runs, all running at once: each gets about 1/count "
                       "of the predicted work, concurrency / count slots and share / count of the quota.")
    deployment: str = Field("nightly-shard/shard", description="The shard flow's deployment (prefect.yaml); "
                            "its work pool decides where children run.")
    retries: int = Field(1, ge=0, le=5, description="New child runs for a shard whose run failed or crashed "
                         "(finished trials are cached: a new run does only the rest).")
    poll_s: float = Field(5, gt=0, description="Seconds between checks of the children's progress.")


class SplitBudget(_Strict):
    """How often one model version may be evaluated on a split: ``runs`` runs per ``days`` days, counted from the
    audit log, so a held-out score cannot be hill-climbed by resubmitting."""

    runs: int = Field(ge=1, description="Runs allowed per model version within the window.")
    days: float = Field(7, gt=0, description="The window, in days, counted back from now.")


class SplitGrant(_Strict):
    """``splits.<heldout|commercial>`` in an experiment file: where its key is and how often it may be run."""

    key_secret: str | None = Field(None, description="Name of a Prefect Secret block holding the split's key, "
                                   "read when NIGHTSHIFT_SPLIT_KEY_<SPLIT> is not set (workers without it).")
    budget: SplitBudget | None = Field(None, description="Runs per model version per window; unset: no limit.")


class Experiment(_Strict):
    """One experiment file: what to run tonight and how."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$", description="Names the run folder.")
    suites: list[str] = Field(["builtin"], min_length=1,
                              description="'builtin' or suite folders relative to this file.")
    cases: list[str] | None = Field(None, description="Only these case ids (default: every case).")
    variants: list[Variant] = Field(min_length=1, description="The models/harness settings compared.")
    seeds: list[int] = Field([1, 2], min_length=1, description="One trial per case × variant × seed.")
    hidden_seed: int | None = Field(None, ge=0, description="Seed of tonight's hidden stress tests, to replay a "
                                    "night exactly; unset: a new one each night (from the name and the date).")
    allow_unvalidated: bool = Field(False, description="Run even when a suite has no passing validate-suite "
                                    "record for its current content; the manifest records that it did.")
    concurrency: int = Field(4, ge=1, le=1024,
                             description="Trials in flight at once (with shards: in all of them together).")
    infra_retries: int = Field(2, ge=0, le=10, description="Retries of a trial that ended in infra_error.")
    result_storage: str | None = Field(
        None, description="Where finished trials are cached (what makes a re-run skip them): unset uses "
        "<output_dir>/.trial-cache; a Prefect storage block slug such as 's3-bucket/nightshift-results' "
        "(prefect-aws) puts it where every worker can read it.")

    def trial_cache(self) -> Path | str:
        """The Prefect result storage for trial results: a block slug, or the local cache folder."""
        return self.result_storage or self.output_dir / ".trial-cache"

    def key_secrets(self) -> dict[str, str]:
        """Protected split -> the Prefect Secret block the experiment names for its key."""
        return {split: grant.key_secret for split, grant in self.splits.items() if grant.key_secret}
    sandbox: SandboxSettings = SandboxSettings()
    model: ModelEndpoint = ModelEndpoint()
    output_dir: Path = Field(Path("runs"), description="Where run folders are written (relative to this file).")
    schedule: ScheduleSettings = ScheduleSettings()
    gpu: GpuSettings = GpuSettings()
    shards: ShardSettings | None = Field(None, description="Spread the trials over child flow runs on a work "
                                         "pool (several machines); unset: every trial runs in this process.")
    alerts: AlertSettings | None = Field(None, description="Infra failure spike alerts and the share of infra "
                                         "errors that makes a night untrustworthy (flows/infra_alerts.py).")
    analysis: AnalysisSettings = AnalysisSettings()
    splits: dict[Literal["heldout", "commercial"], SplitGrant] = Field(
        {}, description="Per protected split, where its key is (beyond NIGHTSHIFT_SPLIT_KEY_<SPLIT>) and its budget "
        "per model version (docs/SPLITS.md).")
    metrics: list[MetricSpec] = Field([], description="Metrics every trial gets beyond resolved and progress "
                                      "(and its suite's): a name such as 'time_to_pass', or {use, name, settings}; "
                                      "each becomes a score.<name> column (docs/ANALYSIS.md).")
    scanners: list[ScannerSpec] | None = Field(None, description="Scanners read every finished trial for how it "
                                               "won (docs/SCANNERS.md): names such as 'test_edits' or {use, "
                                               "settings}; unset: every built-in; []: none.")
    agents: list[AgentEntry] = Field([], description="Agents this experiment adds to the catalogue, or "
                                     "overrides in it (same name), for variants of kind 'installed'.")
    flags: FlagPolicy = Field(FlagPolicy(), description="What flags do to scores: {cheat: fail} makes a trial "
                              "flagged cheat score 0; unset: flags are only reported.")
    replay_of: str | None = Field(None, description="Written by `nightshift replay`, not by hand: the run id this "
                                  "night replays, recorded in its manifest (docs/SPLITS.md).")

    @model_validator(mode="after")
    def _unique(self) -> Experiment:
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names):
            raise ValueError(f"variant names must be unique, got {names}; rename the duplicates")
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"seeds must be unique, got {self.seeds}; remove the repeats")
        own = [a.name for a in self.agents]
        if len(set(own)) != len(own):
            raise ValueError(f"agents: names must be unique, got {own}; merge the duplicates")
        return self

    @model_validator(mode="after")
    def _own_agents(self) -> Experiment:
        """A variant naming an agent of the `agents:` block carries that entry, so a trial run anywhere (a shard
        worker gets only its variant) resolves the same agent, and a changed entry is a new trial."""
        own = {a.name: a for a in self.agents}
        for variant in self.variants:
            harness = variant.harness
            if harness.kind == "installed" and harness.name in own and harness.entry is None:
                harness.entry = own[harness.name]
        return self


def load_experiment(path: Path) -> Experiment:
    """Read an experiment file and validate it against this schema, every pydantic error in one readable message.

    What the file names (harnesses, metrics, suites, the sandbox backend) is resolved a layer above, by
    nightshift.preflight.check_experiment, which runs this first."""
    path = Path(path)
    if not path.is_file():
        raise ExperimentError(f"{path}: no such experiment file; pass the path of a YAML file, or run "
                              f"`nightshift init` in an empty folder to write a starter experiments/default.yaml")
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
        lines += [f"  field '{where}': {msg}" for where, msg in error_lines(exc, Experiment)]
        raise ExperimentError("\n".join(lines)) from None
    # every relative path in the file is read relative to the file itself, wherever it is run from
    exp.output_dir = (path.parent.resolve() / exp.output_dir).resolve()
    return exp


