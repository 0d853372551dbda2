"""One writer per run: ``<run>/run.lock`` is held (flock) for the whole night and names its owner.

A second ``nightshift run`` or deployment run of the same run id is refused with the owner named
(host, pid, start time, flow run). The kernel drops an flock when its process dies, however it dies,
so a lock whose file still names an owner but is not held is stale: it is taken over, said in the log,
and the previous owner's flow run is reported back so the flow can mark it Crashed. A pid that was
reused by another process cannot fool it: liveness is the lock itself, not the pid.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from nightshift.errors import StorageError

LOCK_NAME = "run.lock"


class RunLocked(StorageError, RuntimeError):
    """Another live process is running this run."""


@dataclass
class RunLock:
    """A held lock: ``previous`` is the owner record a dead process left (None: the lock was free)."""

    path: Path
    fd: int
    owner: dict
    previous: dict | None

    def release(self, note: dict | None = None) -> None:
        """Let go of the lock. ``note``: keep the owner record with these fields added (say, that its flow
        run's final state never reached Prefect), for the next owner to act on; otherwise remove the file."""
        if self.fd < 0:
            return
        try:
            if note:
                _write(self.fd, {**self.owner, **note})
            else:
                self.path.unlink(missing_ok=True)  # unlink while held, so no one locks a name about to vanish
        finally:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def describe(owner: dict) -> str:
    flow_run = f", flow run {owner['flow_run_id']}" if owner.get("flow_run_id") else ""
    return (f"pid {owner.get('pid', '?')} on host {owner.get('host', '?')} since {owner.get('started_at', '?')}"
            f"{flow_run}")


def _read(fd: int) -> dict | None:
    os.lseek(fd, 0, os.SEEK_SET)
    data = b""
    while chunk := os.read(fd, 65536):
        data += chunk
    try:
        record = json.loads(data) if data.strip() else None
    except ValueError:
        return {"unreadable": data[:200].decode(errors="replace")}
    return record if isinstance(record, dict) else None


def acquire(run_dir: Path, flow_run_id: str | None = None) -> RunLock:
    """Hold the run's lock or raise RunLocked naming the process that holds it."""
    run_dir.mkdir(parents=True, exist_ok=True)
    path = run_dir / LOCK_NAME
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = _read(fd) or {}
            os.close(fd)
            raise RunLocked(
                f"{run_dir} is being run by {describe(owner)} (lock {path}). Two copies of one night would run "
                f"every trial twice and split the quota: wait for it to finish, or stop that process; a lock "
                f"whose owner has died is taken over automatically.") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder released (unlinked) it between our open and our lock: try the new file
    previous = _read(fd)
    owner = {"host": socket.gethostname(), "pid": os.getpid(), "started_at": datetime.now(UTC).isoformat(
        timespec="seconds"), "flow_run_id": flow_run_id}
    _write(fd, owner)
    return RunLock(path, fd, owner, previous)


def _write(fd: int, record: dict) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(record).encode(), 0)
    os.fsync(fd)
