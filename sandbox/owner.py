"""Who made a sandbox, so the reaper can tell a live trial's sandbox from a dead worker's leftovers.

A sandbox records its creator's host name, pid and the pid's start time (pids get reused). It is
"orphaned" when that process is gone on this host. Sandboxes made on another host are never judged.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from pydantic import BaseModel


def start_time(pid: int) -> str | None:
    """Kernel start time of a process (field 22 of /proc/PID/stat), or None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


class Owner(BaseModel):
    """The process that created a sandbox, and what the sandbox belongs to."""

    run_id: str
    trial_id: str
    host: str
    pid: int
    pid_start: str | None = None

    @classmethod
    def me(cls, run_id: str, trial_id: str) -> Owner:
        return cls(run_id=run_id, trial_id=trial_id, host=socket.gethostname(), pid=os.getpid(),
                   pid_start=start_time(os.getpid()))

    def orphaned(self, keep_run_ids: set[str] | None = None) -> bool:
        """True when the creator is dead on this host and the run is not one the caller keeps."""
        if self.host != socket.gethostname() or self.run_id in (keep_run_ids or set()):
            return False
        current = start_time(self.pid)
        return current is None or (self.pid_start is not None and current != self.pid_start)

    def labels(self, prefix: str) -> dict[str, str]:
        return {f"{prefix}.{key}": str(value) for key, value in self.model_dump().items() if value is not None}

    @classmethod
    def from_labels(cls, labels: dict[str, str], prefix: str) -> Owner | None:
        fields = {key.removeprefix(prefix + "."): value for key, value in labels.items()
                  if key.startswith(prefix + ".")}
        try:
            return cls.model_validate(fields)
        except ValueError:
            return None
