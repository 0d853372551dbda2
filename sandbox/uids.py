"""One host uid per live sandbox, leased from a reserved range, on both backends.

Per-user kernel quotas (inotify instances, POSIX message-queue bytes, the key quota, RLIMIT_NPROC)
are counted per host uid. With one shared uid, one trial could exhaust them for every other trial,
so each sandbox runs as its own uid from ``NIGHTSHIFT_SANDBOX_UIDS`` (default 3000000-3065535, far
above ordinary users and the usual /etc/subuid ranges). The uid doubles as the gid.

A lease is a file ``<lease dir>/<uid>`` (host-wide: ``NIGHTSHIFT_UID_LEASES``, default
/run/nightshift/uids, so every worker and every sandbox root on this host shares one pool) naming the
sandbox folder and the process that took it. It is freed by ``release`` at destroy. A lease whose
process is dead is taken back only once its sandbox folder is gone too (the reaper removed it): until
then a dead worker's leftover processes may still run as that uid. Taking and reclaiming happen under
one ``flock``, so two workers can never both take the same uid.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import socket
from pathlib import Path

from nightshift.errors import SandboxError
from nightshift.sandbox.owner import start_time

DEFAULT_RANGE = (3_000_000, 3_065_535)


class UidPoolError(SandboxError):
    pass


def uid_range() -> tuple[int, int]:
    raw = os.environ.get("NIGHTSHIFT_SANDBOX_UIDS")
    if not raw:
        return DEFAULT_RANGE
    try:
        first, last = (int(part) for part in raw.split("-"))
    except ValueError:
        raise UidPoolError(f"NIGHTSHIFT_SANDBOX_UIDS={raw!r}: expected FIRST-LAST, e.g. 3000000-3065535") from None
    if not 1000 <= first <= last < 2**32 - 1:
        raise UidPoolError(f"NIGHTSHIFT_SANDBOX_UIDS={raw!r}: need 1000 <= FIRST <= LAST < 4294967295")
    return first, last


def lease_dir() -> Path:
    return Path(os.environ.get("NIGHTSHIFT_UID_LEASES", "/run/nightshift/uids"))


def _lease_folders(folder: Path) -> list[Path]:
    """The names a sandbox folder has during its life (staging, live, being deleted)."""
    return [folder, folder.with_name(f".{folder.name}.creating"), folder.with_name(f".{folder.name}.deleting")]


def _stale(record: dict) -> bool:
    if record.get("host") != socket.gethostname():
        return False
    alive = start_time(int(record.get("pid", 0))) == record.get("pid_start") and record.get("pid_start")
    return not alive and not any(p.exists() for p in _lease_folders(Path(record.get("folder", "/nonexistent"))))


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


@contextlib.contextmanager
def _pool_lock():
    root = lease_dir()
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    with open(root / ".lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield root


def acquire(folder: Path) -> int:
    """A uid no other live sandbox on this host holds, leased to the sandbox at ``folder``."""
    first, last = uid_range()
    record = {"folder": str(folder), "host": socket.gethostname(), "pid": os.getpid(),
              "pid_start": start_time(os.getpid())}
    with _pool_lock() as root:
        taken = {int(p.name) for p in root.iterdir() if p.name.isdigit()}
        free = last - first + 1 - len(taken)
        for _ in range(64 if free > 0 else 0):  # random probes: fast while the pool is mostly free
            uid = random.randint(first, last)
            if uid not in taken:
                break
        else:
            unused = next((u for u in range(first, last + 1) if u not in taken), None)
            uid = unused if unused is not None else _reclaim(root, taken)
        (root / str(uid)).write_text(json.dumps(record))
    return uid


def _reclaim(root: Path, taken: set[int]) -> int:
    for uid in sorted(taken):
        record = _read(root / str(uid))
        if record is None or _stale(record):
            return uid
    first, last = uid_range()
    raise UidPoolError(f"all {last - first + 1} sandbox uids ({first}-{last}) are leased to live sandboxes; "
                       f"widen NIGHTSHIFT_SANDBOX_UIDS or run fewer sandboxes at once")


def release(uid: int, folder: Path) -> None:
    """Free ``uid`` if it is still leased to ``folder`` (never another sandbox's lease)."""
    with _pool_lock() as root:
        record = _read(root / str(uid))
        if record is not None and record.get("folder") == str(folder):
            (root / str(uid)).unlink(missing_ok=True)


def prune() -> int:
    """Drop leases of dead processes whose sandbox folders are gone (the reaper calls this); returns how many."""
    dropped = 0
    with _pool_lock() as root:
        for path in root.iterdir():
            record = _read(path) if path.name.isdigit() else None
            if record is not None and _stale(record):
                path.unlink(missing_ok=True)
                dropped += 1
    return dropped
