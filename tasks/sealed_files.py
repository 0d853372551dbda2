"""What a protected trial leaves in its run folder: its trajectory sealed with the split's key (or nothing, when
the case is not sealed and no key is at hand), and a reason cut to its kind, since a reason may quote test output
or the instruction (an agent's traceback, a grader's message)."""

from __future__ import annotations

from pathlib import Path

from nightshift.atomic_files import atomic_write_bytes
from nightshift.models import Case
from nightshift.splits import split_key
from nightshift.splits.sealing import seal_bytes


def seal_trajectory(plain: Path, target: Path, case: Case, key_secrets: dict[str, str]) -> Path | None:
    """Seal the trajectory written at ``plain`` (private memory) to ``target``; None when not kept."""
    if not plain.is_file():
        return None
    key = split_key(case.split, key_secrets.get(case.split))
    if key is None:  # a protected case kept in the clear, and no key: the trajectory is not kept at all
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(target, seal_bytes(key, plain.read_bytes()))
    return target


def redacted_reason(reason: str) -> str:
    """The kind of a reason ('SandboxError', 'step_limit'), never what follows it."""
    if not reason:
        return reason
    return reason.split(":", 1)[0].split("\n", 1)[0][:80] + " (details withheld: protected split)"
