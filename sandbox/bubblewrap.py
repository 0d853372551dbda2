"""The "local" backend: one bubblewrap jail per exec over a per-trial workspace folder.

Isolation: new user, net, pid, ipc, uts and cgroup namespaces (no network at all: only a private
loopback), read-only system binds, a cleared environment (no host secrets), and the jail runs as an
unprivileged host uid. Limits: a cgroup per sandbox (memory, pids, cpu) where the host allows,
rlimits (file size, CPU seconds, open files) always. A background process cannot outlive its exec:
bubblewrap's pid namespace dies with the command, and we kill whatever is left in the cgroup.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

from nightshift.contracts import SandboxLimits, SandboxSpec
from nightshift.models import ExecResult
from sandbox.cgroups import CgroupSet
from sandbox.output import CappedReader
from sandbox.paths import SandboxPathError, host_path

SANDBOX_UID = 65534  # "nobody": the jail never runs as host root
SANDBOX_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TERM": "dumb"}
_ETC_FILES = ("passwd", "group", "hosts", "nsswitch.conf", "ld.so.cache", "alternatives", "localtime")


def sandbox_root() -> Path:
    return Path(os.environ.get("NIGHTSHIFT_SANDBOX_ROOT", "/tmp/nightshift-sandboxes"))


class BubblewrapSandbox:
    def __init__(self, spec: SandboxSpec, rootfs: Path):
        self.id = f"nsb-{spec.trial_id[:12]}-{uuid.uuid4().hex[:6]}"
        self.spec = spec
        self.limits: SandboxLimits = spec.limits
        self.rootfs = rootfs
        self.dir = sandbox_root() / self.id
        self.workspace = self.dir / "workspace"
        self.grader = self.dir / "grader"
        self.cgroups = CgroupSet(self.id)
        self._create()

    def _create(self) -> None:
        self.dir.mkdir(parents=True)
        owner = {"run_id": self.spec.run_id, "trial_id": self.spec.trial_id, "pid": os.getpid(),
                 "pid_start": _start_time(os.getpid()), "created": time.time()}
        (self.dir / "owner.json").write_text(json.dumps(owner))
        if self.spec.workspace_source:
            shutil.copytree(self.spec.workspace_source, self.workspace, symlinks=True)
        else:
            self.workspace.mkdir()
        _chown_tree(self.workspace, SANDBOX_UID)
        self.cgroups.create(self.limits)

    def _bwrap_args(self, cwd: str, env: dict[str, str]) -> list[str]:
        args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--hostname", "sandbox",
                "--ro-bind", str(self.rootfs / "usr"), "/usr"]
        for link in ("bin", "lib", "lib64", "sbin"):
            target = self.rootfs / link
            if target.is_symlink():
                args += ["--symlink", os.readlink(target), f"/{link}"]
            elif target.is_dir():
                args += ["--ro-bind", str(target), f"/{link}"]
        for name in _ETC_FILES:
            if (self.rootfs / "etc" / name).exists():
                args += ["--ro-bind", str(self.rootfs / "etc" / name), f"/etc/{name}"]
        args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", str(self.workspace), "/workspace"]
        if self.grader.is_dir():
            args += ["--ro-bind", str(self.grader), "/grader"]
        args += ["--chdir", cwd, "--clearenv"]
        for key, value in {**SANDBOX_ENV, **env}.items():
            args += ["--setenv", key, value]
        return args

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult:
        lim = self.limits
        prlimit = ["prlimit", f"--fsize={lim.disk_mb * 1024 * 1024}", f"--cpu={lim.cpu_seconds}",
                   "--nofile=1024", "--core=0", "--"]
        drop = ["setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups", "--"]
        inner = [*prlimit, *drop, *self._bwrap_args(cwd, env or {}), "--", "bash", "-c", command]
        join = self.cgroups.join_command()
        argv = ["sh", "-c", f'{join} && exec "$@"', "sh", *inner] if join else inner
        started = time.monotonic()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, env={"PATH": "/usr/bin:/bin"})
        cap = lim.output_kb * 1024
        out, err = CappedReader(proc.stdout, cap), CappedReader(proc.stderr, cap)
        timed_out = False
        try:
            code = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            self._kill(proc)
            code = proc.wait()
        self.cgroups.kill_all()  # nothing started by this exec outlives it
        return ExecResult(exit_code=code, stdout=out.text(), stderr=err.text(), timed_out=timed_out,
                          duration_s=time.monotonic() - started, stdout_dropped=out.dropped,
                          stderr_dropped=err.dropped)

    def _kill(self, proc: subprocess.Popen) -> None:
        self.cgroups.kill_all()
        try:
            os.killpg(proc.pid, 9)
        except ProcessLookupError:
            pass

    def write_file(self, path: str, data: bytes) -> None:
        target = host_path(self.workspace, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        os.chown(target, SANDBOX_UID, SANDBOX_UID)

    def read_file(self, path: str) -> bytes:
        return host_path(self.workspace, path).read_bytes()

    def copy_in(self, host_dir: Path, sandbox_dir: str) -> None:
        if sandbox_dir != "/grader" and not sandbox_dir.startswith("/grader/"):
            raise SandboxPathError(f"bubblewrap copies folders in only under /grader, not {sandbox_dir}")
        shutil.copytree(host_dir, self.grader / sandbox_dir.removeprefix("/grader").lstrip("/"),
                        dirs_exist_ok=True)
        for path in [self.grader, *self.grader.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)

    def destroy(self) -> None:
        self.cgroups.destroy()
        shutil.rmtree(self.dir, ignore_errors=True)


class BubblewrapBackend:
    name = "bubblewrap"

    def __init__(self, image: str = "host"):
        self.rootfs = Path("/") if image == "host" else Path(image)
        if not (self.rootfs / "usr").is_dir():
            raise ValueError(f"sandbox.image {image!r}: not a root filesystem (no usr/ inside); use 'host' "
                             f"or the path of a debootstrapped root")
        if shutil.which("bwrap") is None:
            raise RuntimeError("bubblewrap is not installed: apt-get install bubblewrap")

    def identity(self) -> str:
        """Content identity of the root the jail sees: OS release, installed packages, bwrap version."""
        digest = hashlib.sha256()
        for rel in ("etc/os-release", "var/lib/dpkg/status"):
            path = self.rootfs / rel
            digest.update(path.read_bytes() if path.is_file() else b"-")
        digest.update(subprocess.run(["bwrap", "--version"], capture_output=True).stdout)
        return f"rootfs:{self.rootfs}:sha256:{digest.hexdigest()}"

    def create(self, spec: SandboxSpec) -> BubblewrapSandbox:
        return BubblewrapSandbox(spec, self.rootfs)

    def reap(self, keep_run_ids: set[str] | None = None) -> int:
        """Remove sandboxes whose creating process is gone; never touch folders without our owner file."""
        removed = 0
        root = sandbox_root()
        for folder in root.iterdir() if root.is_dir() else []:
            owner_file = folder / "owner.json"
            if not folder.name.startswith("nsb-") or not owner_file.is_file():
                continue
            owner = json.loads(owner_file.read_text())
            if _alive(owner["pid"], owner.get("pid_start")):
                continue
            CgroupSet.attach(folder.name).destroy()
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
        for name in CgroupSet.leftovers():
            if name.startswith("nsb-") and not (root / name).exists():
                CgroupSet.attach(name).destroy()
        return removed


def _start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _alive(pid: int, start: str | None) -> bool:
    """True when pid is running and is the same process (pids get reused)."""
    current = _start_time(pid)
    return current is not None and (start is None or current == start)


def _chown_tree(root: Path, uid: int) -> None:
    os.chown(root, uid, uid)
    for path in root.rglob("*"):
        os.lchown(path, uid, uid)
