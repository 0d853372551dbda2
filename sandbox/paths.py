"""Map sandbox paths to host paths without letting a symlink lead outside the workspace."""

from __future__ import annotations

import os
from pathlib import Path


class SandboxPathError(ValueError):
    pass


def host_path(workspace: Path, sandbox_path: str) -> Path:
    """Host path of a file under /workspace; refuses paths (or symlinks) that resolve outside it."""
    rel = sandbox_path.removeprefix("/workspace").lstrip("/") if sandbox_path.startswith("/") else sandbox_path
    if sandbox_path.startswith("/") and not sandbox_path.startswith("/workspace"):
        raise SandboxPathError(f"{sandbox_path}: only paths under /workspace can be read or written directly")
    root = workspace.resolve()
    target = Path(os.path.realpath(root / rel))
    if target != root and root not in target.parents:
        raise SandboxPathError(f"{sandbox_path}: resolves outside the workspace ({target}); refused")
    return target
