"""A trial's artefacts beside its result row: each graded check with its output tail, and the workspace diff.

``grades/<trial>.json`` and ``diffs/<trial>.diff`` in the run folder, written atomically like the rows,
read by the viewer on demand. Held-out cases get neither: their tests and outputs must stay unseen.
"""

from __future__ import annotations

import json
from pathlib import Path

from nightshift.atomic_files import atomic_write_bytes
from nightshift.graders.workspace_diff import workspace_diff
from nightshift.models import GradeResult


def grade_path(run_dir: Path, trial_id: str) -> Path:
    return run_dir / "grades" / f"{trial_id}.json"


def diff_path(run_dir: Path, trial_id: str) -> Path:
    return run_dir / "diffs" / f"{trial_id}.diff"


def write_grade(run_dir: Path, trial_id: str, grade: GradeResult) -> None:
    atomic_write_bytes(grade_path(run_dir, trial_id), grade.model_dump_json(indent=1).encode())


def write_diff(run_dir: Path, trial_id: str, text: str, dropped: int) -> None:
    note = f"\n# ... {dropped} more bytes of diff were cut by the sandbox output limit\n" if dropped else ""
    atomic_write_bytes(diff_path(run_dir, trial_id), (text + note).encode())


def read_grade(run_dir: Path, trial_id: str) -> dict | None:
    path = grade_path(run_dir, trial_id)
    return json.loads(path.read_text()) if path.is_file() else None


def read_diff(run_dir: Path, trial_id: str) -> str | None:
    path = diff_path(run_dir, trial_id)
    return path.read_text(errors="replace") if path.is_file() else None


def keep_workspace_diff(run_dir: Path, trial_id: str, case, sandbox) -> None:
    """Write the workspace diff; a diff that cannot be made is noted in the file, never a failed trial."""

    try:
        text, dropped = workspace_diff(case, sandbox)
    except Exception as exc:  # noqa: BLE001 - the diff is for reading; the grade must not depend on it
        text, dropped = f"# no diff: {type(exc).__name__}: {exc}\n", 0
    write_diff(run_dir, trial_id, text, dropped)
