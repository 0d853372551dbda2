"""Atomic file writes with a unique temporary name, removed on every failure path.

Every writer of a run's files (rows, Parquet, report, summary) goes through here, so two writers of one
run (a second process, a thread, another host on a shared folder) never share a temporary file, and a
failed write (a full disk first of all) leaves neither a half file nor a stray temporary one.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable
from pathlib import Path


def temporary_name(path: Path) -> Path:
    """A hidden sibling name that no other writer uses at the same time."""
    return path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}-{uuid.uuid4().hex[:8]}.tmp")


def atomic_write_with(path: Path, write: Callable[[Path], object]) -> Path:
    """``write(tmp)`` then rename ``tmp`` onto ``path``; ``tmp`` is removed if anything fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    try:
        write(tmp)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    return atomic_write_with(path, lambda tmp: tmp.write_bytes(data))


def atomic_write_text(path: Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode())


def remove_temporaries(folder: Path) -> int:
    """Remove this module's temporary files left in ``folder`` by a killed writer; returns how many."""
    removed = 0
    for tmp in folder.glob(".*.tmp") if folder.is_dir() else ():
        tmp.unlink(missing_ok=True)
        removed += 1
    return removed
