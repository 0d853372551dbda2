"""Per-sandbox cgroups for memory, process count and CPU share (cgroup v1 or v2, best effort).

rlimits cannot cap a whole process tree's memory or process count (and RLIMIT_NPROC does not
apply to root), so the bubblewrap backend puts each sandbox in its own cgroup when the host lets
us create one. Where it does not, ``CgroupSet.available`` is False and the caller records that.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

from nightshift.contracts import SandboxLimits

_ROOT = Path("/sys/fs/cgroup")
_PARENT = "nightshift"


def _own_paths() -> dict[str, str]:
    """Controller name -> our process's cgroup path, from /proc/self/cgroup."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else ["unified"]:
            paths[name] = path
    return paths


def _controller(path: Path) -> str:
    return path.relative_to(_ROOT).parts[0]


class CgroupSet:
    """The cgroup directories of one sandbox, one per controller we use."""

    def __init__(self, name: str):
        self.name = name
        self.dirs: list[Path] = []
        self.v2 = not (_ROOT / "pids").is_dir()

    def parents(self) -> list[Path]:
        own = _own_paths()
        if self.v2:
            return [_ROOT / own.get("unified", "/").lstrip("/") / _PARENT]
        return [_ROOT / ctrl / own.get(ctrl, "/").lstrip("/") / _PARENT for ctrl in ("pids", "memory", "cpu")]

    def create(self, limits: SandboxLimits) -> bool:
        try:
            for parent in self.parents():
                parent.mkdir(exist_ok=True)
                if self.v2:
                    with contextlib.suppress(OSError):
                        (parent / "cgroup.subtree_control").write_text("+pids +memory +cpu")
                path = parent / self.name
                path.mkdir(exist_ok=True)
                self.dirs.append(path)
            self._apply(limits)
            return True
        except OSError:
            self.destroy()
            return False

    def _apply(self, limits: SandboxLimits) -> None:
        memory = limits.memory_mb * 1024 * 1024
        period = 100_000
        for path in self.dirs:
            if self.v2:
                (path / "pids.max").write_text(str(limits.pids))
                (path / "memory.max").write_text(str(memory))
                with contextlib.suppress(OSError):
                    (path / "memory.swap.max").write_text("0")
                (path / "cpu.max").write_text(f"{int(limits.cpus * period)} {period}")
            elif _controller(path) == "pids":
                (path / "pids.max").write_text(str(limits.pids))
            elif _controller(path) == "memory":
                (path / "memory.limit_in_bytes").write_text(str(memory))
                with contextlib.suppress(OSError):
                    (path / "memory.memsw.limit_in_bytes").write_text(str(memory))
            elif _controller(path) == "cpu":
                (path / "cpu.cfs_period_us").write_text(str(period))
                (path / "cpu.cfs_quota_us").write_text(str(int(limits.cpus * period)))

    @property
    def available(self) -> bool:
        return bool(self.dirs)

    def join_command(self) -> str:
        """Shell snippet that moves the current shell (and so all its children) into every cgroup."""
        return " && ".join(f'echo $$ > "{p}/cgroup.procs"' for p in self.dirs)

    def pids(self) -> set[int]:
        found: set[int] = set()
        for path in self.dirs:
            with contextlib.suppress(OSError):
                found |= {int(x) for x in (path / "cgroup.procs").read_text().split()}
        return found

    def memory_events(self) -> dict[str, int]:
        """OOM kills and limit hits, so a killed trial can say it ran out of memory."""
        for path in self.dirs:
            with contextlib.suppress(OSError):
                if self.v2:
                    text = (path / "memory.events").read_text()
                    return {k: int(v) for k, v in (line.split() for line in text.splitlines())}
                if _controller(path) == "memory":
                    return {"max": int((path / "memory.failcnt").read_text())}
        return {}

    def kill_all(self, deadline_s: float = 5.0) -> None:
        """SIGKILL every process in the sandbox until none is left (forks race the first pass)."""
        end = time.monotonic() + deadline_s
        while (pids := self.pids()) and time.monotonic() < end:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)

    def destroy(self) -> None:
        self.kill_all()
        for path in self.dirs:
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
        self.dirs = []

    @classmethod
    def leftovers(cls) -> list[str]:
        """Names of sandbox cgroups that exist under our parent (the reaper compares them to live sandboxes)."""
        names: set[str] = set()
        for parent in cls("probe").parents():
            if parent.is_dir():
                names |= {p.name for p in parent.iterdir() if p.is_dir()}
        return sorted(names)

    @classmethod
    def attach(cls, name: str) -> CgroupSet:
        """A handle on an existing sandbox's cgroups (for the reaper)."""
        found = cls(name)
        found.dirs = [p / name for p in found.parents() if (p / name).is_dir()]
        return found
