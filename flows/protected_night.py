"""A night that touches a protected split: its budget checked and its audit lines written (splits/audit.py).

``start`` runs after the manifest is pinned (the model versions are known) and before the first trial: it refuses
a spent budget (and records the refusal), else appends a ``started`` line; ``finish`` appends the outcome. A
night refused for want of a key is recorded by ``record_refusal``. Cases appear by their opaque ids only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from nightshift.experiment.config import Experiment
from nightshift.experiment.manifest import RunManifest
from nightshift.models import Case, TrialResult
from nightshift.splits import SplitAccessError
from nightshift.splits.audit import append, audit_path
from nightshift.splits.grants import BudgetRule, check_budgets, experiment_budgets
from nightshift.suites.loader import suite_budgets


@dataclass
class ProtectedNight:
    log: Path
    run_id: str
    cases: dict[str, str]  # case id -> its opaque label
    splits: dict[str, list[str]]  # split -> the opaque labels of its cases
    model_versions: dict[str, str]

    def finish(self, rows: list[TrialResult]) -> None:
        """The outcome: per split, trials by status and how many resolved."""
        outcome: dict[str, dict[str, int]] = {}
        for split in self.splits:
            chosen = [r for r in rows if r.split == split and r.case_id in self.cases]
            outcome[split] = {"trials": len(chosen), **Counter(r.status.value for r in chosen)}
        append(self.log, "finished", run_id=self.run_id, splits=self.splits, model_versions=self.model_versions,
               outcome=outcome)


def start(exp: Experiment, file: Path, manifest: RunManifest, cases: list[Case],
          suite_dirs: list[Path] | None = None) -> ProtectedNight | None:
    """None for a night with no protected case; else the budget is checked and the start recorded."""
    chosen = [c for c in cases if c.protected]
    if not chosen:
        return None
    splits: dict[str, list[str]] = {}
    for case in chosen:
        splits.setdefault(case.split, []).append(case.label)
    versions = {name: pin.version for name, pin in manifest.models.items()}
    night = ProtectedNight(audit_path(exp.output_dir), manifest.run_id, {c.id: c.label for c in chosen}, splits,
                           versions)
    try:
        check_budgets(chosen, budget_rules(exp, file, suite_dirs or []), versions, night.log, manifest.run_id)
    except SplitAccessError as exc:
        append(night.log, "refused", run_id=manifest.run_id, splits=splits, model_versions=versions,
               outcome={"refused": exc.kind})
        raise
    append(night.log, "started", run_id=manifest.run_id, splits=splits, model_versions=versions,
           outcome={"started": sum(1 for _ in chosen)})
    return night


def budget_rules(exp: Experiment, file: Path, suite_dirs: Sequence[Path]) -> list[BudgetRule]:
    """Every budget that holds for the night: the experiment's and each suite's own."""
    rules = experiment_budgets({str(k): g for k, g in exp.splits.items()}, file)
    return rules + [rule for folder in suite_dirs for rule in suite_budgets(folder)]


def record_refusal(exp: Experiment, exc: SplitAccessError) -> None:
    """A night refused before its cases were read (no key, a network): recorded with the splits it asked for, not
    the cases (without the key they have no opaque id to be named by)."""
    append(audit_path(exp.output_dir), "refused", run_id=None, splits={s: [] for s in exc.splits},
           model_versions={}, outcome={"refused": exc.kind}, experiment=exp.name)
