"""A workspace diff read back as files: which paths the agent added, changed or deleted, and the lines it wrote.

The diff is the one nightshift keeps beside each trial (``diff -ruN`` with ``a/`` and ``b/`` paths,
graders/workspace_diff.py); scanners read it through ``parse_diff`` instead of re-parsing text each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

_FROM = re.compile(r"^--- (?:a/)?(\S+)")
_TO = re.compile(r"^\+\+\+ (?:b/)?(\S+)")
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_BINARY = re.compile(r"^Binary files (?:a/)?(\S+) and (?:b/)?(\S+) differ")


@dataclass
class FileChange:
    """One path of the diff: its fate and the lines written (new line number, text) and removed (old number)."""

    path: str
    status: Literal["added", "modified", "deleted"] = "modified"
    added: list[tuple[int, str]] = field(default_factory=list)
    removed: list[tuple[int, str]] = field(default_factory=list)
    binary: bool = False
    hunks: list[tuple[int, int, int, int]] = field(default_factory=list)  # old start, old len, new start, new len


def _fate(change: FileChange) -> Literal["added", "modified", "deleted"]:
    # diff -N writes a missing side as an empty file: one hunk "-0,0 +1,N" (added) or "-1,N +0,0" (deleted)
    if len(change.hunks) == 1:
        old_start, old_len, new_start, new_len = change.hunks[0]
        if old_start == old_len == 0:
            return "added"
        if new_start == new_len == 0:
            return "deleted"
    return "modified"


def parse_diff(text: str) -> list[FileChange]:
    """Every file of a unified diff, in order; lines outside any file (notes, a cut marker) are skipped."""
    files: list[FileChange] = []
    current: FileChange | None = None
    old_no = new_no = old_left = new_left = 0
    pending_from = False
    for line in text.splitlines():
        if old_left > 0 or new_left > 0:  # inside a hunk: a "--- x" here is a removed "-- x" line
            if current is not None and line.startswith("+"):
                current.added.append((new_no, line[1:]))
                new_no, new_left = new_no + 1, new_left - 1
            elif current is not None and line.startswith("-"):
                current.removed.append((old_no, line[1:]))
                old_no, old_left = old_no + 1, old_left - 1
            elif line.startswith(" ") or line == "":
                old_no, new_no, old_left, new_left = old_no + 1, new_no + 1, old_left - 1, new_left - 1
            continue  # "\ No newline at end of file" counts for neither side
        if (binary := _BINARY.match(line)) is not None:
            files.append(FileChange(binary.group(2), binary=True))
            current = None
        elif _FROM.match(line):
            pending_from = True
        elif pending_from and (to := _TO.match(line)) is not None:
            current = FileChange(to.group(1))
            files.append(current)
            pending_from = False
        elif current is not None and (hunk := _HUNK.match(line)) is not None:
            old_no, new_no = int(hunk.group(1)), int(hunk.group(3))
            old_left = int(hunk.group(2)) if hunk.group(2) is not None else 1
            new_left = int(hunk.group(4)) if hunk.group(4) is not None else 1
            current.hunks.append((old_no, old_left, new_no, new_left))
    for change in files:
        if not change.binary:
            change.status = _fate(change)
    return files
