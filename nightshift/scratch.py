"""Scratch folders of a process (generated hidden tests, the simulator's start-up files), kept under the
project's state folder instead of the system's temp folder, and reaped when their process is gone.

A folder is named ``<kind>-<pid>-<process start tick>``: the start tick (field 22 of /proc/<pid>/stat)
makes a reused pid harmless. Each folder is removed by its owner on exit (atexit, or the ``with`` block),
and whatever a killed process left is removed by ``reap_scratch`` at the next start of a night.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from nightshift.errors import StorageError
from nightshift.resources import state_dir

LEGACY_PREFIXES = ("nightshift-hidden-", "nightshift-sim-")
"""What older versions left in the system temp folder; reaped once a day old."""
LEGACY_AGE_S = 24 * 3600


def scratch_root() -> Path:
    return Path(os.environ.get("NIGHTSHIFT_SCRATCH") or state_dir() / "scratch")


def private_root() -> Path:
    """Where a protected case's plaintext may sit while a trial or the grader needs it: memory (/dev/shm) when
    this host has it, so nothing decrypted ever reaches a disk; else the scratch root. One 0700 folder per user,
    refused if anyone else could have made it or can enter it (/dev/shm is writable by every user)."""
    shm = Path("/dev/shm")
    if os.environ.get("NIGHTSHIFT_PRIVATE_SCRATCH"):
        root = Path(os.environ["NIGHTSHIFT_PRIVATE_SCRATCH"])
    elif shm.is_dir() and os.access(shm, os.W_OK | os.X_OK):
        root = shm / f"nightshift-{os.getuid()}"
    else:
        root = scratch_root() / "private"
    root.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        root.mkdir(mode=0o700)
    info = os.lstat(root)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise StorageError(f"{root}: the private folder for protected cases is not a folder of this user's alone "
                           f"(a link, another owner, or mode {oct(info.st_mode & 0o777)}); remove it, or set "
                           f"NIGHTSHIFT_PRIVATE_SCRATCH to a folder only this user can enter")
    return root


def _start_tick(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]  # field 22 counted after the command name


def new_scratch(kind: str, root: Path | None = None) -> Path:
    """A fresh private (0700) folder owned by this process, under ``root`` (default: scratch_root)."""
    root = root or scratch_root()
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = root / f"{kind}-{os.getpid()}-{_start_tick(os.getpid())}-{uuid.uuid4().hex[:6]}"
    path.mkdir(mode=0o700)
    return path


@contextlib.contextmanager
def scratch(kind: str, root: Path | None = None) -> Iterator[Path]:
    """A scratch folder for the length of the block, removed on every exit path."""
    path = new_scratch(kind, root)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _owner_alive(name: str) -> bool:
    parts = name.split("-")
    if len(parts) < 4 or not parts[-3].isdigit():
        return True  # not ours to judge
    return _start_tick(int(parts[-3])) == parts[-2]


def reap_scratch(root: Path | None = None) -> int:
    """Remove scratch folders whose process is gone, and day-old ones older versions left in the system
    temp folder; returns how many."""
    removed = 0
    root = root or scratch_root()
    for path in root.iterdir() if root.is_dir() else ():
        if path.is_dir() and not _owner_alive(path.name):
            shutil.rmtree(path, ignore_errors=True)
            removed += 1
    now = time.time()
    for path in Path(tempfile.gettempdir()).iterdir():
        if path.name.startswith(LEGACY_PREFIXES) and path.is_dir():
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > LEGACY_AGE_S:
                    shutil.rmtree(path, ignore_errors=True)
                    removed += 1
    return removed
