"""Per-sandbox cgroups for memory, process count and CPU share (cgroup v1 or v2, best effort).

rlimits cannot cap a whole process tree's memory or process count (and RLIMIT_NPROC does not
apply to root), so the bubblewrap backend puts each sandbox in its own cgroup when the host lets
us create one. Where it does not, ``CgroupSet.available`` is False and the caller records that.

For the timing step of a case graded by speed, ``pinned(cpus)`` confines every process the sandbox starts to
one CPU core (a cpuset: v2's cpuset.cpus on the sandbox's own cgroup, or a v1 cpuset cgroup joined for the
block only), which is how a CPU-core slot of the timing pool (gpu/) is enforced, not merely asked for.

Sandbox cgroups live under ``nightshift/<scope>/``, one scope per sandbox root folder: the reaper
judges a cgroup by the folder of the same name, so it must never see cgroups of sandboxes kept in
another root (another test session, another deployment on the same host), which it cannot judge.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

from nightshift.contracts import SandboxLimits
from nightshift.sandbox.folder import sandbox_root

_ROOT = Path("/sys/fs/cgroup")
_PARENT = "nightshift"


def _own_paths(pid: int | str = "self") -> dict[str, str]:
    """Controller name -> a process's cgroup path, from /proc/PID/cgroup ("unified" for v2)."""
    paths: dict[str, str] = {}
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else ["unified"]:
            paths[name] = path
    return paths


def root_scope() -> str:
    """Names the sandbox root this process uses, so that cgroups of different roots never mix."""
    return "root-" + hashlib.sha256(str(sandbox_root().resolve()).encode()).hexdigest()[:12]


def _controller(path: Path) -> str:
    return path.relative_to(_ROOT).parts[0]


class CgroupSet:
    """The cgroup directories of one sandbox, one per controller we use."""

    def __init__(self, name: str, scope: str | None = None):
        self.name = name
        self.scope = scope or root_scope()
        self.dirs: list[Path] = []
        self.v2 = not (_ROOT / "pids").is_dir()

    def parents(self) -> list[Path]:
        own = _own_paths()
        if self.v2:
            return [_ROOT / own.get("unified", "/").lstrip("/") / _PARENT / self.scope]
        return [_ROOT / ctrl / own.get(ctrl, "/").lstrip("/") / _PARENT / self.scope
                for ctrl in ("pids", "memory", "cpu")]

    def create(self, limits: SandboxLimits) -> bool:
        try:
            for parent in self.parents():
                for level in (parent.parent, parent):
                    level.mkdir(exist_ok=True)
                    if self.v2:
                        with contextlib.suppress(OSError):
                            (level / "cgroup.subtree_control").write_text("+pids +memory +cpu")
                path = parent / self.name
                for attempt in range(3):
                    try:
                        path.mkdir(exist_ok=True)
                        break
                    except FileNotFoundError:  # a reaper pruned the empty scope just now: make it again
                        parent.mkdir(exist_ok=True)
                        if attempt == 2:
                            raise
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

    def _cpuset_parent(self) -> Path:
        """v1: where this scope's cpuset cgroups live (made only while a sandbox is pinned)."""
        own = _own_paths()
        return _ROOT / "cpuset" / own.get("cpuset", "/").lstrip("/") / _PARENT / self.scope

    @contextlib.contextmanager
    def pinned(self, cpus: str) -> Iterator[bool]:
        """Inside the block every new process of the sandbox runs only on ``cpus`` ('3', '2-3'). Yields False,
        pinning nothing, where the host has no writable cpuset controller or the sandbox no cgroup."""
        if not self.dirs:
            yield False
            return
        if self.v2:
            path = self.dirs[0]
            try:
                for level in (path.parent.parent, path.parent):
                    with contextlib.suppress(OSError):
                        (level / "cgroup.subtree_control").write_text("+cpuset")
                (path / "cpuset.cpus").write_text(cpus)
            except OSError:
                yield False
                return
            try:
                yield True
            finally:
                with contextlib.suppress(OSError):
                    (path / "cpuset.cpus").write_text("")  # empty: the parent's cores again
            return
        path = self._cpuset_parent() / self.name
        try:
            for level in (path.parent.parent, path.parent, path):
                level.mkdir(exist_ok=True)
                for name in ("cpuset.mems", "cpuset.cpus"):  # a new v1 cpuset starts empty: no task may join it
                    if not (level / name).read_text().strip():
                        (level / name).write_text((level.parent / name).read_text().strip())
            (path / "cpuset.cpus").write_text(cpus)
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            yield False
            return
        self.dirs.append(path)  # every exec of the block joins it (join_command); kill_all sees its processes
        try:
            yield True
        finally:
            self.dirs.remove(path)
            self.kill_all_in([path])
            _rmdir(path)

    def kill_all_in(self, dirs: list[Path]) -> None:
        """SIGKILL what is left in these cgroup folders (a pinned block's cpuset after its exec)."""
        for _ in range(200):
            pids: set[int] = set()
            for path in dirs:
                with contextlib.suppress(OSError):
                    pids |= {int(x) for x in (path / "cgroup.procs").read_text().split()}
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def join_command(self) -> str:
        """Shell snippet that moves the current shell (and so all its children) into every cgroup."""
        return " && ".join(f'echo $$ > "{p}/cgroup.procs"' for p in self.dirs)

    def pids(self) -> set[int]:
        found: set[int] = set()
        for path in self.dirs:
            with contextlib.suppress(OSError):
                found |= {int(x) for x in (path / "cgroup.procs").read_text().split()}
        return found

    def counters(self) -> dict[str, int]:
        """How often the sandbox hit its memory limit (OOM kills) and its process limit (refused forks)."""
        found = {"oom_kill": 0, "pids_max": 0}
        for path in self.dirs:
            for name, key, field in (("memory.events", "oom_kill", "oom_kill"), ("memory.oom_control", "oom_kill",
                                     "oom_kill"), ("pids.events", "pids_max", "max")):
                with contextlib.suppress(OSError, ValueError):
                    for line in (path / name).read_text().splitlines():
                        label, _, value = line.partition(" ")
                        if label == field:
                            found[key] = max(found[key], int(value))
        return found

    def kill_all(self, deadline_s: float = 5.0, spare: frozenset[int] = frozenset()) -> None:
        """SIGKILL every process in the sandbox but ``spare`` until none is left.

        New forks are refused meanwhile (pids.max 0, restored after), so a fork bomb cannot outrun us."""
        if not self.pids() - spare:
            return
        limits = {}
        for path in self.dirs:
            with contextlib.suppress(OSError):
                limits[path] = (path / "pids.max").read_text().strip()
                (path / "pids.max").write_text("0")
        try:
            end = time.monotonic() + deadline_s
            while (pids := self.pids() - spare) and time.monotonic() < end:
                for pid in pids:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.005)
        finally:
            for path, value in limits.items():
                with contextlib.suppress(OSError):
                    (path / "pids.max").write_text(value)

    def destroy(self) -> None:
        self.kill_all()
        for path in self.dirs:
            _rmdir(path)
        self.dirs = []

    @classmethod
    def leftovers(cls) -> list[str]:
        """Names of sandbox cgroups that exist under our parent (the reaper compares them to live sandboxes)."""
        names: set[str] = set()
        probe = cls("probe")
        for parent in [*probe.parents(), *([] if probe.v2 else [probe._cpuset_parent()])]:
            if parent.is_dir():
                names |= {p.name for p in parent.iterdir() if p.is_dir()}
        return sorted(names)

    @classmethod
    def prune_empty_scopes(cls) -> None:
        """Remove scope folders no sandbox uses (any root's: rmdir of a cgroup with children fails)."""
        probe = cls("probe")
        for parent in [*probe.parents(), *([] if probe.v2 else [probe._cpuset_parent()])]:
            for scope in parent.parent.glob("root-*") if parent.parent.is_dir() else []:
                with contextlib.suppress(OSError):
                    scope.rmdir()

    @classmethod
    def of_process(cls, pid: int) -> CgroupSet:
        """The pids and memory cgroups a process is in (a docker container's, from its init pid)."""
        found = cls(f"pid-{pid}")
        own = _own_paths(pid)
        if found.v2:
            found.dirs = [_ROOT / own.get("unified", "/").lstrip("/")]
        else:
            found.dirs = [_ROOT / ctrl / own[ctrl].lstrip("/") for ctrl in ("pids", "memory") if ctrl in own]
        return found

    @classmethod
    def attach(cls, name: str) -> CgroupSet:
        """A handle on an existing sandbox's cgroups (for the reaper)."""
        found = cls(name)
        parents = [*found.parents(), *([] if found.v2 else [found._cpuset_parent()])]  # a pinned sandbox's cpuset
        found.dirs = [p / name for p in parents if (p / name).is_dir()]
        return found


def _rmdir(path: Path) -> None:
    """Remove an emptied cgroup folder (its last processes may take a moment to leave)."""
    for _ in range(50):
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)
