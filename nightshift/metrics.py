"""The metric extension point: the ``Metric`` base class, what it is given and returns, and how a name becomes one.

A metric is built with its settings and called once per trial with the ``TrialFacts`` (case, sandbox, grade,
how the agent ended, timings, the final workspace's files); it returns a ``MetricResult`` (value, message) or a
bare number, bool or None. Subclass ``Metric`` (a pydantic model: its fields are the settings, validated with
errors that name the field) or bring any class with ``__call__``. ``resolve_metric`` turns an entry of
suite.toml's or the experiment's ``metrics:`` into an ``ActiveMetric``: a built-in name, an entry point of
``nightshift.metrics`` or ``module:Class`` (nightshift.plugins.METRICS). Scoring a trial with a suite's
metrics is the graders' (graders/metric.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeAlias, cast

from pydantic import BaseModel, ConfigDict, ValidationError

from nightshift.contracts import Sandbox
from nightshift.errors import ConfigurationError
from nightshift.models import RESERVED_METRIC_NAMES as RESERVED
from nightshift.models import Case, GradeResult, MetricSpec
from nightshift.plugins import METRICS
from nightshift.registry import PluginError
from nightshift.validation_messages import error_lines


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


MetricValue: TypeAlias = MetricResult | float | bool | None
MetricFn: TypeAlias = Callable[[TrialFacts], MetricValue]  # a Metric instance, or a plain function of the facts


@dataclass
class ActiveMetric:
    """One metric ready to score: its column name, the callable, and what the manifest pins."""

    name: str
    call: MetricFn
    identity: dict[str, Any]
    unit: str = "fraction"
    higher_is_better: bool = True
    needs_files: bool = False

    def column_meta(self) -> dict[str, str]:
        return {"unit": self.unit, "higher_is_better": str(self.higher_is_better).lower()}


def resolve_metric(spec: MetricSpec | str | dict[str, Any]) -> ActiveMetric:
    """Import and build one metric; a MetricError says which part of the entry is wrong and how to fix it."""
    entry = spec if isinstance(spec, MetricSpec) else MetricSpec.model_validate(spec)
    try:
        plugin = METRICS.resolve(entry.use)
    except PluginError as exc:
        raise MetricError(str(exc), "use") from None
    target = plugin.target
    call: object
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
        problems = error_lines(exc, target, "settings")
        raise MetricError(f"metric {entry.use!r}: " + "; ".join(f"{w}: {m}" for w, m in problems),
                          problems[0][0]) from None
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
    # callable, checked above; that it takes the trial's facts is the plugin's contract (Metric.__call__)
    return ActiveMetric(name, cast(MetricFn, call),
                        {**plugin.identity(), "name": name, "use": entry.use, "settings": settings},
                        getattr(call, "unit", "fraction"), bool(getattr(call, "higher_is_better", True)),
                        bool(getattr(call, "needs_files", False)))


