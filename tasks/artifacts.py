"""A trial's artefacts beside its result row: its trajectory, each graded check with its output tail, and the
workspace diff.

``trajectories/<trial>.jsonl``, ``grades/<trial>.json`` and ``diffs/<trial>.diff`` in the run folder (the grade
and diff written atomically like the rows), read by the viewer on demand. Held-out cases get no grade and no
diff: their tests and outputs must stay unseen.

A trial answered from the trial cache in a later run (same trial id, no model call) brings its artefacts with
it: ``adopt_artefacts`` hard-links them from the run that ran it (a copy where a link cannot be made), so every
run folder holds the evidence of every row it has, whatever happens to the older folder later.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from pathlib import Path

from nightshift.atomic_files import atomic_write_bytes
from nightshift.graders.workspace_diff import workspace_diff
from nightshift.models import GradeResult


def trajectory_path(run_dir: Path, trial_id: str) -> Path:
    return run_dir / "trajectories" / f"{trial_id}.jsonl"


def grade_path(run_dir: Path, trial_id: str) -> Path:
    return run_dir / "grades" / f"{trial_id}.json"


def diff_path(run_dir: Path, trial_id: str) -> Path:
    return run_dir / "diffs" / f"{trial_id}.diff"


def write_grade(run_dir: Path, trial_id: str, grade: GradeResult) -> None:
    atomic_write_bytes(grade_path(run_dir, trial_id), grade.model_dump_json(indent=1).encode())


def write_diff(run_dir: Path, trial_id: str, text: str, dropped: int) -> None:
    note = _cut_note(dropped) if dropped else ""
    atomic_write_bytes(diff_path(run_dir, trial_id), (text + note).encode())


def read_grade(run_dir: Path, trial_id: str) -> dict | None:
    path = grade_path(run_dir, trial_id)
    return json.loads(path.read_text()) if path.is_file() else None


def read_diff(run_dir: Path, trial_id: str) -> str | None:
    path = diff_path(run_dir, trial_id)
    return path.read_text(errors="replace") if path.is_file() else None


def take_workspace_diff(case, sandbox) -> str | None:
    """The workspace diff as scanners read it (with a cut marker); None when it cannot be made (never a failed
    trial: the grade must not depend on it)."""
    try:
        text, dropped = workspace_diff(case, sandbox)
    except Exception:  # noqa: BLE001 - the diff is for reading and scanning; the grade must not depend on it
        return None
    return text + (_cut_note(dropped) if dropped else "")


def _cut_note(dropped: int) -> str:
    return f"\n# ... {dropped} more bytes of diff were cut by the sandbox output limit\n"


def keep_workspace_diff(run_dir: Path, trial_id: str, case, sandbox) -> str | None:
    """Write the workspace diff and return it; a diff that cannot be made is noted in the file, never a failed
    trial."""
    try:
        text, dropped = workspace_diff(case, sandbox)
    except Exception as exc:  # noqa: BLE001 - the diff is for reading; the grade must not depend on it
        write_diff(run_dir, trial_id, f"# no diff: {type(exc).__name__}: {exc}\n", 0)
        return None
    write_diff(run_dir, trial_id, text, dropped)
    return text + (_cut_note(dropped) if dropped else "")


def sealed_trajectory_path(run_dir: Path, trial_id: str) -> Path:
    """A protected trial's trajectory, sealed with its split's key (tasks/sealed_files.py)."""
    return run_dir / "trajectories" / f"{trial_id}.jsonl.fernet"


ARTEFACTS = (trajectory_path, grade_path, diff_path, sealed_trajectory_path)


def adopt_artefacts(run_dir: Path, trial_id: str, source_run: str) -> Path | None:
    """Give ``run_dir`` the artefacts of a trial it reuses from the run ``source_run``; returns the folder they came
    from, or None when none was found.

    The source is looked for beside ``run_dir`` (runs of one output folder are siblings): the run that ran the
    trial first, else any sibling holding the trial's trajectory (a trial id names one trial's content, so
    every copy is the same evidence). A run on another machine (a shared trial cache on a storage block) is
    not reachable: the row still says where it came from (``reused_from``)."""
    parent = run_dir.parent
    candidates = [parent / source_run] if source_run and source_run != run_dir.name else []
    with contextlib.suppress(OSError):
        candidates += sorted(p for p in parent.iterdir() if p.is_dir() and p not in candidates and p != run_dir)
    for source in candidates:
        if any(path_of(source, trial_id).is_file() for path_of in (trajectory_path, grade_path,
                                                                   sealed_trajectory_path)):
            for path_of in ARTEFACTS:
                _link_or_copy(path_of(source, trial_id), path_of(run_dir, trial_id))
            return source
    return None


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link (no bytes twice, and the copy outlives the source folder); a copy across file systems.
    Safe to share: a finished trial's files are never written again in place (grades and diffs are replaced
    atomically, and a trajectory is unlinked before it is rewritten: nightshift/trajectory.py)."""
    if not source.is_file() or target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
