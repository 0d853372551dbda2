"""What a night must satisfy before its first trial when it selects protected cases: the network rule and each
split's budget. (The key itself is checked where sealed cases are opened: suites/loader.py.)"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from nightshift.experiment.config import SplitGrant
from nightshift.models import Case
from nightshift.splits.audit import runs_started
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


def check_budgets(cases: list[Case], grants: Mapping[str, SplitGrant], model_versions: dict[str, str],
                  audit_file: Path, file: Path, run_id: str = "") -> None:
    """Refuse the night when a split it touches has spent its budget for one of its model versions. The run itself
    (``run_id``: a resume of the same manifest, which learns nothing new) is not counted against it."""
    splits = sorted({c.split for c in cases if c.protected})
    lines = []
    for split in splits:
        budget = grants.get(split, SplitGrant()).budget
        if budget is None:
            continue
        spent = []
        for variant, version in sorted(model_versions.items()):
            runs = sorted(set(runs_started(audit_file, split, version, budget.days)) - {run_id})
            if len(runs) >= budget.runs:
                spent.append(f"model version {version!r} (variant {variant}) already ran {len(runs)} times in the "
                             f"last {budget.days:g} days (runs {', '.join(runs)})")
        if spent:
            lines.append(f"split {split!r}: budget of {budget.runs} runs per {budget.days:g} days spent: "
                         + "; ".join(spent))
    if lines:
        raise SplitAccessError(f"{file}: field 'splits': " + "\n".join(lines) + f"; wait for the window to pass "
                               f"(the audit log {audit_file} counts), or ask the split's owner to raise the budget",
                               splits=tuple(splits), kind="budget spent")
