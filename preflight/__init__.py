"""Everything an experiment file names, resolved once before any trial starts: ``check_experiment``.

Owns the step between the experiment schema (experiment/config.py, which imports no part) and a night: the
suite folders each ``suites`` entry names, every variant's harness (its class and validated settings — resolved
here once and handed down to every trial of the night), the metrics, and the sandbox backend's name. Every
problem is reported at once, each naming the file, the field and the fix. Must not run anything: no sandbox,
no Prefect, no model call.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from nightshift.errors import HarnessError, SuiteError
from nightshift.experiment.config import Experiment, ExperimentError, load_experiment
from nightshift.harnesses.resolve import ResolvedHarness, resolve_harness
from nightshift.metrics import MetricError, resolve_metric
from nightshift.plugins import SANDBOXES
from nightshift.registry import PluginError
from nightshift.scanners import DEFAULTS_ENTRY, ScannerError, resolve_scanner
from nightshift.suites import resolve_suite


@dataclass(frozen=True)
class CheckedExperiment:
    """An experiment file with what it names resolved: the night is built from this, not from the file again."""

    file: Path
    exp: Experiment
    suite_dirs: list[Path]
    """The folder of each ``suites`` entry, in order ('builtin', 'humaneval' imported on first use, or a path)."""
    harnesses: dict[str, ResolvedHarness]
    """Variant name -> its harness, resolved once for the whole night."""


_CHECKED: dict[tuple[Path, int, int], CheckedExperiment] = {}  # (file, mtime, size): checked once per process


def check_experiment(path: Path | str) -> CheckedExperiment:
    """Read the file (schema errors first), then resolve everything it names; ExperimentError lists every problem.

    The same unchanged file is checked once per process: `nightshift run` checks it before Prefect starts and the
    flow it then runs gets the same harnesses, not a second resolution."""
    path = Path(path)
    stat = path.stat() if path.is_file() else None
    key = (path.resolve(), stat.st_mtime_ns, stat.st_size) if stat else None
    if key in _CHECKED:
        return _CHECKED[key]
    checked = _check(path)
    if key:
        _CHECKED[key] = checked
    return checked


def _check(path: Path) -> CheckedExperiment:
    exp = load_experiment(path)
    problems: list[str] = []
    suite_dirs: list[Path] = []
    for index, name in enumerate(exp.suites):
        try:
            suite_dirs.append(resolve_suite(name, path.parent))
        except SuiteError as exc:
            problems.append(f"field 'suites.{index}': {exc}")
    harnesses: dict[str, ResolvedHarness] = {}
    for index, variant in enumerate(exp.variants):
        try:
            harnesses[variant.name] = resolve_harness(variant.harness)
        except HarnessError as exc:
            problems.append(f"variant {variant.name!r}: field 'variants.{index}.harness.{exc.field}': {exc}")
    problems += _metric_problems(exp)
    problems += _scanner_problems(exp)
    problems += _backend_problems(exp.sandbox.backend)
    if problems:
        head = f"{path}: " if len(problems) == 1 else f"{path}: {len(problems)} problems\n  "
        raise ExperimentError(head + "\n  ".join(problems))
    return CheckedExperiment(path, exp, suite_dirs, harnesses)


def _scanner_problems(exp: Experiment) -> list[str]:
    """Each scanner the file names, resolved now: a typo fails before any trial runs, not at its end."""
    problems = []
    for index, entry in enumerate(exp.scanners or []):
        if entry.use == DEFAULTS_ENTRY:  # the default built-ins: nothing of the user's to check
            continue
        try:
            resolve_scanner(entry)
        except ScannerError as exc:
            problems.append(f"field 'scanners.{index}': {exc}")
    return problems


def _metric_problems(exp: Experiment) -> list[str]:
    problems: list[str] = []
    seen: dict[str, int] = {}
    for index, entry in enumerate(exp.metrics):
        try:
            metric = resolve_metric(entry)
        except MetricError as exc:
            problems.append(f"field 'metrics.{index}.{exc.field}': {exc}")
            continue
        if metric.name in seen:
            problems.append(f"field 'metrics.{index}': a second metric named {metric.name!r} (first at "
                            f"metrics.{seen[metric.name]}); give one of them another 'name'")
        seen.setdefault(metric.name, index)
    return problems


def _backend_problems(name: str) -> list[str]:
    """A name the SANDBOXES registry resolves (a plugin backend is checked like a built-in one)."""
    try:
        SANDBOXES.resolve(name)
    except PluginError as exc:
        installed = ", ".join(repr(n) for n in SANDBOXES.names())
        detail = "" if name in SANDBOXES.names() or ":" not in name else f" ({exc})"
        return [f"field 'sandbox.backend': unknown sandbox backend {name!r}{detail}; installed: {installed}. Use "
                f"one of those, a 'module:Class', or install a package with an entry point in 'nightshift.sandboxes'"]
    return []
