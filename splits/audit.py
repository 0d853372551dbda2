"""The audit log of protected splits: one JSON line per event of a run that touches them, each chained to the one
before by SHA-256, so an edited or deleted line shows when the chain is verified (``nightshift audit``).

It lives next to the run store (``<output_dir>/audit.jsonl``), is only ever appended to (O_APPEND under an
exclusive lock, so a night's parent and other nights on the host never interleave), and names protected cases by
their opaque ids only. A head file beside it (``audit.jsonl.head``: the count and the last line's hash) makes a cut
tail show too. Whoever may write both files can still rewrite history consistently; docs/SPLITS.md says what to do
about that (copy the head off the host).
"""

from __future__ import annotations

import fcntl
import getpass
import hashlib
import json
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from nightshift.errors import StorageError

AUDIT_FILE = "audit.jsonl"
GENESIS = "0" * 64


class AuditBroken(StorageError, ValueError):
    """The chain does not hold: a line was edited, removed or inserted."""

    exit_code = 1

    def __init__(self, path: Path, line: int, why: str) -> None:
        self.line = line
        super().__init__(f"{path}: line {line}: {why}; the audit log was changed after it was written")


def audit_path(output_dir: Path) -> Path:
    return Path(output_dir) / AUDIT_FILE


def _head_path(path: Path) -> Path:
    return path.with_name(path.name + ".head")


def line_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def who() -> dict[str, str]:
    """Who is running: the OS user and host, and the Prefect API this process talks to (its identity there)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = str(os.getuid())
    return {"user": user, "host": socket.gethostname(), "prefect_api": os.environ.get("PREFECT_API_URL", "ephemeral")}


@contextmanager
def _locked(path: Path) -> Iterator[int]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)  # closing releases the lock


def _last_line(path: Path) -> tuple[int, str]:
    """(how many lines, the hash of the last one) of the log as it is now."""
    count, last = 0, GENESIS
    with path.open(encoding="utf-8") as log:
        for text in log:
            if text.strip():
                count, last = count + 1, line_hash(text.rstrip("\n"))
    return count, last


def append(path: Path, event: str, **fields: Any) -> dict[str, Any]:
    """Append one event (started, finished, refused) chained to the last line; returns the entry written."""
    with _locked(path) as fd:
        count, last = _last_line(path)
        entry = {"seq": count + 1, "at": datetime.now(UTC).isoformat(timespec="seconds"), "event": event,
                 "who": who(), **fields, "prev": last}
        text = json.dumps(entry, sort_keys=True, default=str)
        os.write(fd, (text + "\n").encode())
        os.fsync(fd)
        head = _head_path(path)
        staged = head.with_name(head.name + ".partial")
        staged.write_text(json.dumps({"lines": count + 1, "last": line_hash(text)}) + "\n")
        staged.replace(head)
    return entry


@dataclass(frozen=True)
class AuditEntry:
    line: int
    data: dict[str, Any]


def verify(path: Path) -> list[AuditEntry]:
    """Every entry of the log, after checking the chain line by line and against the head; AuditBroken names the
    first line where it does not hold."""
    if not path.is_file():
        return []
    entries: list[AuditEntry] = []
    previous = GENESIS
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, text in enumerate(lines, start=1):
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise AuditBroken(path, number, "not a JSON line") from None
        if not isinstance(data, dict) or data.get("prev") != previous:
            raise AuditBroken(path, number, "its 'prev' is not the hash of the line before it (a line before it "
                              "was edited or removed)")
        if data.get("seq") != number:
            raise AuditBroken(path, number, f"its 'seq' is {data.get('seq')!r}, expected {number} (a line was "
                              f"removed or inserted)")
        entries.append(AuditEntry(number, data))
        previous = line_hash(text)
    head = _head_path(path)
    if head.is_file():
        recorded = json.loads(head.read_text())
        if recorded.get("lines") != len(lines) or recorded.get("last") != previous:
            raise AuditBroken(path, len(lines) + 1 if recorded.get("lines", 0) > len(lines) else len(lines),
                              f"{head.name} records {recorded.get('lines')} lines ending in "
                              f"{str(recorded.get('last'))[:12]}..., the log has {len(lines)} (its tail was cut "
                              f"or edited)")
    return entries


def runs_started(path: Path, split: str, model_version: str, days: float, now: datetime | None = None) -> list[str]:
    """The run ids that started on ``split`` with ``model_version`` within the last ``days`` (the budget's count;
    the chain is verified first, so a deleted line cannot refill a budget unnoticed)."""
    since = (now or datetime.now(UTC)) - timedelta(days=days)
    runs = []
    for entry in verify(path):
        data = entry.data
        if (data.get("event") == "started" and split in data.get("splits", {})
                and model_version in data.get("model_versions", {}).values()
                and datetime.fromisoformat(data["at"]) >= since):
            runs.append(str(data.get("run_id")))
    return runs
