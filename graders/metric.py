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
from dataclasses import dataclass
from pathlib import Path

from nightshift.contracts import Sandbox
from nightshift.metrics import ActiveMetric, MetricResult, TrialFacts, resolve_metric
from nightshift.models import Case, MetricSpec

DEFAULT_METRICS = ("resolved", "progress")  # every trial has these: they are the pass rate and progress


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
