"""What a night must satisfy before its first trial when it selects protected cases: the network rule and each
split's budget. (The key itself is checked where sealed cases are opened: suites/loader.py.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from nightshift.experiment.config import SplitBudget, SplitGrant
from nightshift.models import Case
from nightshift.splits.audit import runs_started, verify
from nightshift.splits.keys import SplitAccessError


def network_problems(cases: list[Case], backend: str, backend_network_free: bool) -> list[str]:
    """A held-out or commercial case never runs beside a network, whatever the experiment asks: not with
    sidecars (a private network), not on a backend that does not promise an empty network."""
    problems = []
    with_sidecars = [c.label for c in cases if c.protected and c.sidecars]
    if with_sidecars:
        problems.append(f"protected cases {', '.join(with_sidecars)} need sidecars, which put their sandbox on a "
                        f"network; a held-out or commercial case runs with no network at all: drop the sidecars "
                        f"from those cases or make them public")
    protected = [c.label for c in cases if c.protected]
    if protected and not backend_network_free:
        problems.append(f"sandbox backend {backend!r} does not declare network_free = True, so it may give a "
                        f"sandbox a network; protected cases ({', '.join(protected)}) run only on backends that "
                        f"never do (bubblewrap, docker)")
    return problems


def unsealed_warning(cases: list[Case]) -> str | None:
    """A protected case kept in a plain folder is redacted, audited and budgeted, but anyone who can read the folder
    can read it, and it needs no key: say so, by count (the ids are what is protected)."""
    plain = sorted({c.split for c in cases if c.protected and not c.sealed})
    if not plain:
        return None
    count = sum(1 for c in cases if c.protected and not c.sealed)
    return (f"{count} {'/'.join(plain)} cases are stored in the clear and run without a key; seal them: "
            f"nightshift seal SUITE --split {plain[0]} (docs/SPLITS.md)")


BudgetRule = tuple[str, str, SplitBudget]
"""(where it is set, for the message: 'exp.yaml: field splits.heldout.budget'; the split; the budget)."""


def experiment_budgets(grants: Mapping[str, SplitGrant], file: Path) -> list[BudgetRule]:
    return [(f"{file}: field 'splits.{split}.budget'", split, grant.budget)
            for split, grant in sorted(grants.items()) if grant.budget is not None]


def check_budgets(cases: list[Case], rules: Sequence[BudgetRule], model_versions: dict[str, str],
                  audit_file: Path, run_id: str = "") -> None:
    """Refuse the night when a split it touches has spent a budget (the experiment's or its suite's: each holds) for
    one of its model versions. The run itself (``run_id``: a resume of the same manifest, which learns nothing new)
    is not counted against it."""
    touched = {c.split for c in cases if c.protected}
    lines = []
    for source, split, budget in rules:
        if split not in touched:
            continue
        spent = []
        for variant, version in sorted(model_versions.items()):
            runs = sorted(set(runs_started(audit_file, split, version, budget.days)) - {run_id})
            if len(runs) >= budget.runs:
                spent.append(f"model version {version!r} (variant {variant}) already ran {len(runs)} times in the "
                             f"last {budget.days:g} days (runs {', '.join(runs)})")
        if spent:
            lines.append(f"{source}: split {split!r}: budget of {budget.runs} runs per {budget.days:g} days spent: "
                         + "; ".join(spent))
    if lines:
        raise SplitAccessError("\n".join(lines) + f"; wait for the window to pass (the audit log {audit_file} "
                               f"counts), or ask the split's owner to raise the budget",
                               splits=tuple(sorted(touched)), kind="budget spent")


def last_versions(audit_file: Path, variants: Sequence[str]) -> dict[str, str]:
    """The model version each variant last started a protected night as (from the audit log; verified)."""
    versions: dict[str, str] = {}
    for entry in verify(audit_file) if audit_file.is_file() else []:
        if entry.data.get("event") == "started":
            versions.update({v: str(version) for v, version in entry.data.get("model_versions", {}).items()
                             if v in variants})
    return versions


def budget_report(cases: list[Case], rules: Sequence[BudgetRule], variants: Sequence[str], audit_file: Path
                  ) -> list[str]:
    """For ``nightshift check``, which pins no model version: each budget of a split the night touches, and what the
    audit log says is spent of it by the version each variant last ran as. A spent one is refused as ``run`` would
    refuse it (SplitAccessError), unless the endpoint now serves another version."""
    touched = {c.split for c in cases if c.protected}
    chosen = [rule for rule in rules if rule[1] in touched]
    if not chosen:
        return []
    versions = last_versions(audit_file, variants)
    lines = []
    for source, split, budget in chosen:
        spent = ", ".join(f"{len(runs_started(audit_file, split, version, budget.days))} by {version} ({variant})"
                          for variant, version in sorted(versions.items())) or "none yet"
        lines.append(f"budget {split}: {budget.runs} runs per {budget.days:g} days ({source}); spent: {spent}")
    try:
        check_budgets(cases, chosen, versions, audit_file)
    except SplitAccessError as exc:
        raise SplitAccessError(f"{exc}\n(as of the model versions these variants last ran as; a run refuses it "
                               f"unless the endpoint now serves another)", splits=exc.splits, kind=exc.kind) from None
    return lines
