"""Map sandbox paths to host paths without letting a symlink lead outside the workspace.

Files are read and written from the host side only between commands (every sandbox process is killed
when its exec ends), so nothing inside can swap a checked path for a symlink while we use it; the
final open still refuses symlinks and anything that is not a regular file (a FIFO would block us).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from nightshift.errors import NightshiftError


class SandboxPathError(NightshiftError, ValueError):
    pass


def host_path(workspace: Path, sandbox_path: str) -> Path:
    """Host path of a file under /workspace; refuses paths (or symlinks) that resolve outside it."""
    rel = sandbox_path.removeprefix("/workspace").lstrip("/") if sandbox_path.startswith("/") else sandbox_path
    if sandbox_path.startswith("/") and not (sandbox_path == "/workspace" or sandbox_path.startswith("/workspace/")):
        raise SandboxPathError(f"{sandbox_path}: only paths under /workspace can be read or written directly")
    root = workspace.resolve()
    target = Path(os.path.realpath(root / rel))
    if target != root and root not in target.parents:
        raise SandboxPathError(f"{sandbox_path}: resolves outside the workspace ({target}); refused")
    return target


def read_regular(path: Path, limit_bytes: int) -> bytes:
    """Bytes of a regular file, opened without following a symlink; refuses FIFOs, devices and giants."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise SandboxPathError(f"{path.name}: cannot open ({exc.strerror})") from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise SandboxPathError(f"{path.name}: not a regular file; refused")
        if info.st_size > limit_bytes:
            raise SandboxPathError(f"{path.name}: {info.st_size} bytes is over the {limit_bytes}-byte read limit")
        return handle.read(limit_bytes + 1)[:limit_bytes]
