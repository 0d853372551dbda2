"""May two runs be compared? Only when they differ in what is being compared (the variants).

Every other pin that changes outcomes must match: the resolved version of any model both runs use,
the sandbox identity (image digest) and limits, the suite hash and case list, the seeds and the
grader version, and every metric both runs score (a metric whose plugin version or settings changed
measures something else under the same name). A metric only one run has is noted, not refused: it is
simply not compared. Code and package versions are reported but do not refuse, since a change of the
harness code is often exactly what a night compares; nor does the hidden-test seed, which changes
every night by design. ``--allow-diff FIELD`` accepts one field explicitly; the report then says so.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nightshift.errors import ConfigurationError
from nightshift.experiment.manifest import RunManifest

GUARDED = ("model_version", "sandbox_identity", "sandbox_limits", "suite_hash", "cases", "seeds", "grader_version",
           "metrics")
NOTED = ("harnesses", "endpoint_protocol", "metric_sets", "code_version", "packages", "python", "hidden_seed",
         "suite_validation")


class NotComparable(ConfigurationError, ValueError):
    """Two runs differ in a pin that decides outcomes; the message lists every such pin."""


@dataclass(frozen=True)
class PinDifference:
    field: str
    a: str
    b: str

    def __str__(self) -> str:
        return f"{self.field}: {self.a}  ≠  {self.b}"


def _short(value: object, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _case_difference(a: dict[str, str], b: dict[str, str]) -> PinDifference | None:
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    changed = sorted(c for c in set(a) & set(b) if a[c] != b[c])
    if not (only_a or only_b or changed):
        return None
    parts_a = [f"only here: {_short(only_a)}"] if only_a else []
    parts_b = [f"only here: {_short(only_b)}"] if only_b else []
    if changed:
        parts_a.append(f"content differs: {_short(changed)}")
    return PinDifference("cases", "; ".join(parts_a) or "-", "; ".join(parts_b) or "-")


def _model_differences(a: RunManifest, b: RunManifest) -> list[PinDifference]:
    """A model name both runs use must have resolved to the same version in both."""
    versions_a = {pin.model: pin.version for pin in a.models.values()}
    versions_b = {pin.model: pin.version for pin in b.models.values()}
    return [PinDifference(f"model_version[{name}]", versions_a[name], versions_b[name])
            for name in sorted(set(versions_a) & set(versions_b)) if versions_a[name] != versions_b[name]]


def harness_differences(variant: str, ha: dict[str, Any] | None, hb: dict[str, Any] | None) -> list[PinDifference]:
    """What changed in one variant's harness identity (kind, entrypoint, version, settings, install, image...)
    between two runs, as ``harnesses[<variant>].<pin>``. The noise floor reads the same list: a variant whose
    harness changed is what a comparison measures, never an A/A pair (analysis/noise.py)."""
    if ha == hb:
        return []
    if ha is None or hb is None:
        return [PinDifference(f"harnesses[{variant}]", _short(ha or "-"), _short(hb or "-"))]
    return [PinDifference(f"harnesses[{variant}].{key}", _short(ha.get(key, "-")), _short(hb.get(key, "-")))
            for key in sorted(set(ha) | set(hb)) if ha.get(key) != hb.get(key)]


def _harness_differences(a: RunManifest, b: RunManifest) -> list[PinDifference]:
    return [d for variant in sorted(set(a.harnesses) | set(b.harnesses))
            for d in harness_differences(variant, a.harnesses.get(variant), b.harnesses.get(variant))]


def _as_compared(metric: dict[str, Any]) -> dict[str, Any]:
    """A built-in metric's version is nightshift's code hash of its module: a refactor there is a code change
    (noted with code_version; grader_version guards what grading means), not another metric."""
    return {k: v for k, v in metric.items() if k != "version"} if metric.get("source") == "builtin" else metric


def _metric_differences(a: RunManifest, b: RunManifest, changed: bool) -> list[PinDifference]:
    """changed: metrics both runs score whose identity differs (guarded, ``metrics[suite].name``); else the
    metrics only one run scores (noted, ``metric_sets[suite]``)."""
    found = []
    for suite in sorted(set(a.metrics) | set(b.metrics)):
        ma = {m.get("name"): _as_compared(m) for m in a.metrics.get(suite, [])}
        mb = {m.get("name"): _as_compared(m) for m in b.metrics.get(suite, [])}
        if changed:
            found += [d for name in sorted(set(ma) & set(mb), key=str) if ma[name] != mb[name]
                      for d in _leaf_differences(f"metrics[{suite}].{name}", ma[name], mb[name])]
        elif set(ma) != set(mb):
            found.append(PinDifference(f"metric_sets[{suite}]", _short(sorted(set(ma) - set(mb), key=str) or "-"),
                                       _short(sorted(set(mb) - set(ma), key=str) or "-")))
    return found


def differences(a: RunManifest, b: RunManifest) -> list[PinDifference]:
    """Every pin that differs between two runs, guarded ones first."""
    found = _model_differences(a, b)
    for name in GUARDED[1:] + NOTED:
        if name in ("metrics", "metric_sets"):
            found += _metric_differences(a, b, changed=name == "metrics")
        elif name == "harnesses":
            found += _harness_differences(a, b)
        elif name == "cases":
            diff = _case_difference(a.cases, b.cases)
            found += [diff] if diff else []
        elif getattr(a, name) != getattr(b, name):
            found += _leaf_differences(name, getattr(a, name), getattr(b, name))
    return found


_MISSING = object()


def _leaf_differences(path: str, a: object, b: object) -> list[PinDifference]:
    """Nested pins (sandbox limits, validation records...) as the leaf paths that differ, so the field that
    decides (``sandbox_limits.cpu_seconds``) is never lost in a cut-off dump of the whole dict."""
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for key in sorted(set(a) | set(b), key=str):
            va, vb = a.get(key, _MISSING), b.get(key, _MISSING)
            if va != vb:
                found += _leaf_differences(f"{path}.{key}", va, vb)
        return found
    shown = ["-" if v is _MISSING else _short(v) for v in (a, b)]
    return [PinDifference(path, *shown)]


def _base_field(diff: PinDifference) -> str:
    return diff.field.split("[", 1)[0].split(".", 1)[0]


def check_comparable(a: RunManifest, b: RunManifest, allow: Set[str] = frozenset()) -> list[PinDifference]:
    """Raise NotComparable listing every guarded difference not allowed; return the allowed/noted ones."""
    unknown = allow - set(GUARDED)
    if unknown:
        raise ValueError(f"--allow-diff {sorted(unknown)}: not a guarded pin; choose from {', '.join(GUARDED)}")
    found = differences(a, b)
    refused = [d for d in found if _base_field(d) in GUARDED and _base_field(d) not in allow]
    if refused:
        lines = [f"runs {a.run_id} and {b.run_id} are not comparable; these pins differ:"]
        lines += [f"  {d}" for d in refused]
        lines.append("compare runs that differ only in their variants, or accept one pin with --allow-diff FIELD")
        raise NotComparable("\n".join(lines))
    return found


def manifest_of(run: str | Path) -> RunManifest:
    """The manifest of a run folder (or of the folder holding a results.parquet)."""
    path = Path(run)
    if not path.exists():  # name what is missing, not the folder above it
        raise NotComparable(f"{path}: no such run folder or file (in {path.parent}: "
                            f"{'it exists' if path.parent.is_dir() else 'which does not exist either'}); "
                            "pass a run folder written by nightshift run, e.g. runs/<experiment>-<hash>")
    folder = path if path.is_dir() else path.parent
    if not (folder / "manifest.json").is_file():
        raise NotComparable(f"{folder}: no manifest.json, so nothing says what this run pinned; pass a run folder "
                            f"written by nightshift run")
    return RunManifest.read(folder / "manifest.json")


def guard_runs(runs: Sequence[str | Path], allow: Set[str]) -> list[str]:
    """Check every run against the first; return the lines a report must show (allowed and noted pins)."""
    if len(runs) < 2:
        return []
    first = manifest_of(runs[0])
    lines = []
    for other in runs[1:]:
        for diff in check_comparable(first, manifest_of(other), allow):
            kind = ("allowed by --allow-diff" if _base_field(diff) in GUARDED
                    else "differs (not guarded: the harness change is what is compared, so this variant's runs "
                         "are no A/A pair)" if _base_field(diff) == "harnesses" else "differs (not guarded)")
            lines.append(f"comparability: {diff.field} {kind}: {diff.a} vs {diff.b}")
    return lines
