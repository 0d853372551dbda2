"""The host side of one sandbox, the same for both backends: owner record, quota disk, grader folder.

Layout under the sandbox root ($NIGHTSHIFT_SANDBOX_ROOT, default /tmp/nightshift-sandboxes)::

    <id>/owner.json        who made it (the reaper's label); written before anything else
    <id>/disk.img, disk/   the quota disk: disk/workspace -> /workspace, disk/tmp -> /tmp
    <id>/grader/           -> /grader, read-only; root-only (unreadable inside) until copy_in
    <id>/run/              -> /run/nightshift, read-only: the command file (sandbox/command_file.py) and
                              any unix socket the host serves to this sandbox (the model proxy)
    <id>/etc/passwd, group -> /etc/passwd, /etc/group: the image's, plus this sandbox's user

Each sandbox runs as its own host uid, leased from a reserved range (sandbox/uids.py) before the
folder appears and freed after it is gone; the workspace belongs to that uid, the host (root) reads it.

Files move in and out on the host side, never by running commands inside, and every path is
checked so that a symlink the agent left cannot make us read or write outside the workspace.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

from nightshift.contracts import SandboxSpec
from nightshift.sandbox import uids
from nightshift.sandbox.disk import QuotaDisk
from nightshift.sandbox.owner import Owner
from nightshift.sandbox.paths import SandboxPathError, host_path, read_regular

SANDBOX_USER = "sandbox"  # the name of every sandbox's own uid in its /etc/passwd
STAGING_SUFFIX = ".creating"
DELETING_SUFFIX = ".deleting"
STAGING_GRACE_S = 60


def sandbox_root() -> Path:
    return Path(os.environ.get("NIGHTSHIFT_SANDBOX_ROOT", "/tmp/nightshift-sandboxes"))


class SandboxFolder:
    def __init__(self, path: Path):
        self.path = path
        self.disk = QuotaDisk(path)
        self.grader = path / "grader"
        self.run = path / "run"
        self.etc = path / "etc"
        self.uid: int | None = None  # known for folders this process made; None for ones the reaper found
        self._read_limit = 1 << 30

    @property
    def workspace(self) -> Path:
        return self.disk.workspace

    @property
    def owner_file(self) -> Path:
        return self.path / "owner.json"

    def owner(self) -> Owner | None:
        try:
            return Owner.model_validate_json(self.owner_file.read_text())
        except (OSError, ValueError):
            return None

    @classmethod
    def create(cls, sandbox_id: str, spec: SandboxSpec, extra: dict | None = None,
               accounts: tuple[str, str] = ("", "")) -> SandboxFolder:
        """Make the folder; ``accounts`` is the image's own /etc/passwd and /etc/group text."""
        folder = cls(sandbox_root() / sandbox_id)
        folder.path.parent.mkdir(parents=True, exist_ok=True)
        folder.uid = uid = uids.acquire(folder.path)
        try:
            # the folder appears under its real name only with its owner record inside: a kill at any
            # point leaves either a labelled folder or a staging one, and the reaper knows both
            staging = folder.path.with_name(f".{sandbox_id}{STAGING_SUFFIX}")
            staging.mkdir(mode=0o755)
            record = {**Owner.me(spec.run_id, spec.trial_id).model_dump(), "uid": uid, **(extra or {})}
            (staging / "owner.json").write_text(json.dumps(record))
            staging.rename(folder.path)
        except BaseException:
            uids.release(uid, folder.path)
            raise
        try:
            folder.disk.create(spec.limits.disk_mb, uid)
            folder._read_limit = spec.limits.disk_mb * 1024 * 1024
            folder.grader.mkdir(mode=0o700)
            folder.run.mkdir(mode=0o755)
            folder.etc.mkdir(mode=0o755)
            passwd, group = accounts
            (folder.etc / "passwd").write_text(_with_line(passwd, f"{SANDBOX_USER}:x:{uid}:{uid}::/tmp:/bin/bash"))
            (folder.etc / "group").write_text(_with_line(group, f"{SANDBOX_USER}:x:{uid}:"))
            if spec.workspace_source:
                # pip byte-compiles the .py files of an installed suite: an agent's first ls must not show them
                shutil.copytree(spec.workspace_source, folder.workspace, symlinks=True, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            _chown_tree(folder.workspace, uid)
        except BaseException:
            folder.destroy()
            raise
        return folder

    def write_file(self, path: str, data: bytes) -> None:
        assert self.uid is not None, "a folder the reaper found takes no writes: its uid is not known"
        target = host_path(self.workspace, path)
        missing = [p for p in [target.parent, *target.parent.parents] if not p.exists()]
        target.parent.mkdir(parents=True, exist_ok=True)
        for made in missing:  # folders we create must stay writable for the sandbox user
            os.chown(made, self.uid, self.uid)
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise SandboxPathError(f"{path}: exists and is not a regular file; refused")
        target.write_bytes(data)
        os.chown(target, self.uid, self.uid)

    def read_file(self, path: str) -> bytes:
        return read_regular(host_path(self.workspace, path), self._read_limit)

    def copy_in(self, host_dir: Path, sandbox_dir: str) -> None:
        """Copy a host folder under /grader (read-only inside); from now on /grader is readable."""
        if sandbox_dir != "/grader" and not sandbox_dir.startswith("/grader/"):
            raise SandboxPathError(f"folders are copied in only under /grader, not {sandbox_dir}")
        rel = sandbox_dir.removeprefix("/grader").lstrip("/")
        if ".." in Path(rel).parts:
            raise SandboxPathError(f"{sandbox_dir}: '..' is not allowed")
        shutil.copytree(host_dir, self.grader / rel, dirs_exist_ok=True)
        for path in [self.grader, *self.grader.rglob("*")]:
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)

    def destroy(self) -> None:
        """Unmount the disk, then delete the folder; never deletes through a still-mounted disk."""
        self.disk.destroy()
        if self.disk.quota == "ext4-loop" and self.disk.mount.exists() and _mounted_below(self.path):
            return  # an unmount failed even lazily; leave it for the reaper rather than rm a live mount
        # rename first: a kill during rmtree (which removes owner.json early) leaves a folder whose
        # name still says it is ours and being deleted, so the reaper can finish the job
        doomed = self.path
        if not self.path.name.startswith(".") and self.path.exists():
            doomed = self.path.with_name(f".{self.path.name}{DELETING_SUFFIX}")
            try:
                self.path.rename(doomed)
            except OSError:
                doomed = self.path
        shutil.rmtree(doomed, ignore_errors=True)
        if self.uid is not None and not doomed.exists():
            uids.release(self.uid, self.path)  # nothing of this sandbox is left that could run as its uid


class FolderFiles:
    """Files in and out of a sandbox go through its host folder, the same way on every backend."""

    folder: SandboxFolder

    @property
    def run_dir(self) -> Path:
        return self.folder.run

    def write_file(self, path: str, data: bytes) -> None:
        self.folder.write_file(path, data)

    def read_file(self, path: str) -> bytes:
        return self.folder.read_file(path)

    def copy_in(self, host_dir: Path, sandbox_dir: str) -> None:
        self.folder.copy_in(host_dir, sandbox_dir)


def orphaned_folders(prefix: str, keep_run_ids: set[str] | None = None) -> list[SandboxFolder]:
    """Folders of this backend whose creator is dead; folders without our owner record are never listed,
    except our own staging folders (``.<prefix>…<STAGING_SUFFIX>``) abandoned for a minute or more."""
    root = sandbox_root()
    found = []
    for path in sorted(root.iterdir()) if root.is_dir() else []:
        folder = SandboxFolder(path)
        staging = path.name.startswith(f".{prefix}") and path.name.endswith(STAGING_SUFFIX)
        if path.name.startswith(f".{prefix}") and path.name.endswith(DELETING_SUFFIX):
            found.append(folder)  # a destroy that was killed half way: nothing in it is live
            continue
        owner = folder.owner() if path.name.startswith(prefix) or staging else None
        if owner is not None and owner.orphaned(keep_run_ids):
            found.append(folder)
        elif staging and owner is None and time.time() - path.stat().st_mtime > STAGING_GRACE_S:
            found.append(folder)  # killed between mkdir and writing the owner record
    return found


def _mounted_below(path: Path) -> bool:
    prefix = str(path) + "/"
    with open("/proc/self/mounts") as mounts:
        return any(line.split()[1].startswith(prefix) for line in mounts)


def _with_line(text: str, line: str) -> str:
    name = line.split(":", 1)[0] + ":"
    kept = [old for old in text.splitlines() if old and not old.startswith(name)]
    return "\n".join([*kept, line]) + "\n"


def _chown_tree(root: Path, uid: int) -> None:
    os.chown(root, uid, uid)
    for path in root.rglob("*"):
        os.lchown(path, uid, uid)
