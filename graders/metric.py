"""Metrics: the named scores of one trial, computed once the grader has run.

A metric is a small class, in the spirit of Inspect's ``@scorer`` and AgentScope's ``MetricBase``:
built with its settings, called with the ``TrialFacts`` (case, sandbox, grade, how the agent ended,
timings, the final workspace's files) and returning a ``MetricResult`` (value, message) — or a bare
number, bool or None. Subclass ``Metric`` (a pydantic model: its fields are the settings, validated
with errors that name the field) or bring any class with ``__call__``.

It is named by ``use``: a built-in name (nightshift.plugins.METRICS), an entry point in the
``nightshift.metrics`` group, or ``module:Class``; per suite (suite.toml) or per experiment
(``metrics:``). Each run resolves its metrics once into a ``MetricSet`` whose identities (name,
source, version or content hash, settings) the manifest pins, so a changed metric is a new trial id.
Every trial gets ``resolved`` and ``progress`` first; each metric becomes a ``score.<name>`` column.
"""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from nightshift.contracts import Sandbox
from nightshift.errors import ConfigurationError
from nightshift.models import RESERVED_METRIC_NAMES as RESERVED
from nightshift.models import Case, GradeResult, MetricSpec
from nightshift.registry import PluginError

DEFAULT_METRICS = ("resolved", "progress")  # every trial has these: they are the pass rate and progress


class MetricError(ConfigurationError, ValueError):
    """A metric that cannot be used as named; ``field`` is where in the metric entry the problem is."""

    def __init__(self, message: str, field: str = "use") -> None:
        super().__init__(message)
        self.field = field


class MetricResult(BaseModel):
    """What a metric says about one trial: a value (None: no value for this trial) and why."""

    value: float | None
    message: str = ""


@dataclass
class TrialFacts:
    """Everything a metric may look at; read-only by convention (the sandbox is still alive)."""

    case: Case
    sandbox: Sandbox | None
    grade: GradeResult | None
    ended_by: str = "submitted"  # or step_limit, timeout, agent_error, infra_error (AgentOutcome.ended_by)
    variant: str = ""
    seed: int = 0
    agent_s: float = 0.0
    grade_s: float = 0.0
    steps: int = 0
    model_calls: int = 0
    tokens: int = 0
    files_before: dict[str, str] = field(default_factory=dict)
    files_after: dict[str, str] | None = None  # path -> sha256 as the agent left it (metrics with needs_files)

    @property
    def resolved(self) -> bool:
        return self.ended_by == "submitted" and self.grade is not None and self.grade.all_passed

    def changed_files(self) -> list[str]:
        """Workspace paths added, modified or deleted by the agent (needs ``needs_files`` on the metric)."""
        if self.files_after is None:
            raise RuntimeError("the final workspace was not listed: set needs_files = True on the metric")
        before, after = self.files_before, self.files_after
        return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


class Metric(BaseModel):
    """Base class of metrics: fields are settings; override ``__call__``. Class attributes describe the value."""

    model_config = ConfigDict(extra="forbid")
    unit: ClassVar[str] = "fraction"  # 'fraction' (in [0, 1], shown in %) or a unit label such as 's', 'files'
    higher_is_better: ClassVar[bool] = True
    needs_files: ClassVar[bool] = False  # list the final workspace before grading (one find in the sandbox)

    def __call__(self, trial: TrialFacts) -> MetricResult | float | bool | None:
        raise NotImplementedError


@dataclass
class ActiveMetric:
    """One metric ready to score: its column name, the callable, and what the manifest pins."""

    name: str
    call: Any
    identity: dict
    unit: str = "fraction"
    higher_is_better: bool = True
    needs_files: bool = False

    def column_meta(self) -> dict[str, str]:
        return {"unit": self.unit, "higher_is_better": str(self.higher_is_better).lower()}


def resolve_metric(spec: MetricSpec | str | dict) -> ActiveMetric:
    """Import and build one metric; a MetricError says which part of the entry is wrong and how to fix it."""
    from nightshift.plugins import METRICS

    entry = spec if isinstance(spec, MetricSpec) else MetricSpec.model_validate(spec)
    try:
        plugin = METRICS.resolve(entry.use)
    except PluginError as exc:
        raise MetricError(str(exc), "use") from None
    target = plugin.target
    try:
        if isinstance(target, type) and issubclass(target, BaseModel):
            call = target.model_validate(entry.settings)
        elif isinstance(target, type):
            call = target(**entry.settings)
        elif callable(target) and not entry.settings:
            call = target  # a plain function of the trial facts
        else:
            raise MetricError(f"{entry.use!r} is a function and takes no settings; remove 'settings'", "settings")
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise MetricError(f"metric {entry.use!r}: {first['msg']}" + (" (required: add it)" if first["type"] ==
                          "missing" else ""), f"settings.{where}" if where else "settings") from None
    except TypeError as exc:
        raise MetricError(f"metric {entry.use!r} does not take these settings ({exc})", "settings") from None
    if not callable(call):
        raise MetricError(f"{entry.use!r} is not callable: a metric needs __call__(self, trial)", "use")
    name = entry.name or getattr(call, "name", None) or entry.use.rpartition(":")[2].rpartition(".")[2]
    name = name if isinstance(name, str) else entry.use
    if not MetricSpec.NAME.fullmatch(name) or name in RESERVED:
        raise MetricError(f"metric {entry.use!r} would be named {name!r}; give it a name: of lowercase letters, "
                          f"digits and _ not in {sorted(RESERVED)}", "name")
    settings = call.model_dump(mode="json") if isinstance(call, BaseModel) else dict(entry.settings)
    return ActiveMetric(name, call, {**plugin.identity(), "name": name, "use": entry.use, "settings": settings},
                        getattr(call, "unit", "fraction"), bool(getattr(call, "higher_is_better", True)),
                        bool(getattr(call, "needs_files", False)))


def _value(raw: object) -> MetricResult:
    if isinstance(raw, MetricResult):
        result = raw
    elif raw is None or isinstance(raw, bool | int | float):
        result = MetricResult(value=None if raw is None else float(raw))
    else:
        raise TypeError(f"returned {type(raw).__name__}; return a MetricResult, a number, a bool or None")
    if result.value is not None and not math.isfinite(result.value):
        return MetricResult(value=None, message=f"not a finite number ({result.value}); {result.message}".strip())
    return result


@dataclass
class MetricSet:
    """The metrics one suite's trials get, in order: the defaults, the suite's, then the experiment's."""

    metrics: list[ActiveMetric]

    @classmethod
    def build(cls, *entry_lists: list[MetricSpec]) -> MetricSet:
        """Resolve defaults + entries; a later entry of the same name replaces an earlier one."""
        chosen: dict[str, ActiveMetric] = {}
        for entry in [*(MetricSpec(use=n) for n in DEFAULT_METRICS), *(e for lst in entry_lists for e in lst)]:
            metric = resolve_metric(entry)
            chosen.pop(metric.name, None)
            chosen[metric.name] = metric
        return cls(list(chosen.values()))

    @property
    def needs_files(self) -> bool:
        return any(m.needs_files for m in self.metrics)

    def identities(self) -> list[dict]:
        return [m.identity for m in self.metrics]

    def columns(self) -> dict[str, dict[str, str]]:
        return {m.name: m.column_meta() for m in self.metrics}

    def score(self, facts: TrialFacts) -> tuple[dict[str, float | None], dict[str, str]]:
        """Every metric's value and message; a metric that fails has no value and says why (the row stands)."""
        scores: dict[str, float | None] = dict(facts.grade.scores) if facts.grade else {}
        messages: dict[str, str] = dict(facts.grade.messages) if facts.grade else {}
        for metric in self.metrics:
            try:
                result = _value(metric.call(facts))
            except Exception as exc:  # noqa: BLE001 - a user's metric must not lose the trial's row
                result = MetricResult(value=None, message=f"metric failed: {type(exc).__name__}: {exc}"[:300])
            scores[metric.name] = result.value
            if result.message:
                messages[metric.name] = result.message[:500]
        return scores, messages


def metric_sets(cases: list[Case], experiment: list[MetricSpec]) -> dict[str, MetricSet]:
    """Suite name -> the MetricSet its trials get: the defaults, the suite's metrics, the experiment's."""
    by_suite: dict[str, list[MetricSpec]] = {}
    for case in cases:
        by_suite.setdefault(case.suite, case.metrics)
    return {suite: MetricSet.build(specs, experiment) for suite, specs in by_suite.items()}


def default_metrics() -> MetricSet:
    """resolved and progress only: what a trial gets when its run names no metrics."""
    return MetricSet.build()


LISTING = ".nightshift-file-listing"


def workspace_files(sandbox: Sandbox, timeout_s: float = 120) -> dict[str, str]:
    """Path (relative to /workspace) -> sha256 of every regular file, listed inside the sandbox.

    The listing goes to a file read back from the host side, so no output cap can shorten it.
    """
    sandbox.exec(f"rm -f {LISTING}; find . -path ./{LISTING} -prune -o -type f -print0 | xargs -0 -r sha256sum "
                 f"> {LISTING}", timeout_s=timeout_s)
    try:
        text = sandbox.read_file(f"/workspace/{LISTING}").decode(errors="replace")
    finally:
        sandbox.exec(f"rm -f {LISTING}", timeout_s=30)
    return dict(_listing_entry(line) for line in text.splitlines() if len(line) > 66)


def _listing_entry(line: str) -> tuple[str, str]:
    escaped = line.startswith("\\")  # sha256sum escapes names holding a newline or backslash
    digest, name = line[escaped:64 + escaped], line[66 + escaped:]
    if escaped:
        name = name.replace("\\n", "\n").replace("\\\\", "\\")
    return name.removeprefix("./"), digest


@functools.lru_cache(maxsize=256)
def host_files(folder: Path, _content_hash: str = "") -> dict[str, str]:
    """The same listing for a host folder (a case's starting workspace; cached per case content)."""
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}
