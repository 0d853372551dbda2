"""The "local" backend: one bubblewrap jail per exec over a per-trial host folder (sandbox/folder.py).

Isolation: new user, net, pid, ipc, uts and cgroup namespaces (no network at all: only a private
loopback), read-only binds of the root filesystem's /usr and a few /etc files, a cleared environment
(no host secrets), a seccomp filter (sandbox/seccomp.py), and the jail runs as the sandbox's own
unprivileged host uid (sandbox/uids.py), mapped to itself in the jail's user namespace. The command
travels as a file (sandbox/command_file.py), never in argv. Limits: a cgroup per sandbox (memory, pids,
cpu) where the host allows; rlimits (file size, CPU seconds, open files) always; the quota disk for
/workspace + /tmp. A background process cannot outlive its exec: bubblewrap's pid namespace dies with
the command, and we kill whatever is left in the cgroup. Needs root (to drop to the sandbox uid,
make cgroups and mount the quota disk).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

from nightshift.plugin import ExecResult, SandboxLimits, SandboxSpec
from nightshift.sandbox import seccomp, uids
from nightshift.sandbox.cgroups import CgroupSet
from nightshift.sandbox.command_file import COMMAND_INSIDE, RUN_INSIDE, PreparedCommand, prepare, write_command
from nightshift.sandbox.folder import FolderFiles, SandboxFolder, orphaned_folders, sandbox_root
from nightshift.sandbox.image_rootfs import ExportedImage, exported_rootfs
from nightshift.sandbox.notices import limit_notices, with_notices
from nightshift.sandbox.output import CappedReader

SANDBOX_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TERM": "dumb"}
_ETC_FILES = ("hosts", "nsswitch.conf", "ld.so.cache", "alternatives", "localtime")
PREFIX = "nsb-"
# the jail mounts its own there (run: /run/nightshift), so an image's own copies are not bound
_MOUNTED_TOP = {"proc", "dev", "tmp", "sys", "run", "workspace", "grader"}


class BubblewrapSandbox(FolderFiles):
    def __init__(self, spec: SandboxSpec, rootfs: Path, use_cgroups: bool = True, syscall_filter=None,
                 image: ExportedImage | None = None):
        self.id = f"{PREFIX}{spec.trial_id[:12]}-{uuid.uuid4().hex[:6]}"
        self.spec = spec
        self.limits: SandboxLimits = spec.limits
        self.rootfs = image.rootfs if image else rootfs
        self.image = image  # a case's own image: its whole root is visible (read-only), with its ENV
        rootfs = self.rootfs
        self.seccomp = syscall_filter
        self.folder = SandboxFolder.create(self.id, spec, accounts=_accounts(rootfs))
        self.uid = self.folder.uid
        self.cgroups = CgroupSet(self.id)
        if use_cgroups and not self.cgroups.create(self.limits):
            self.folder.destroy()  # this host can make cgroups: a sandbox without its limits is an error
            raise RuntimeError(f"sandbox {self.id}: could not create its cgroups under {self.cgroups.parents()}")
        self.enforced = {
            "memory": "cgroup" if self.cgroups.available else "none (no writable cgroup)",
            "pids": "cgroup" if self.cgroups.available else "none (no writable cgroup)",
            "cpus": "cgroup cpu quota" if self.cgroups.available else "none (no writable cgroup)",
            "disk": "ext4 loop quota" if self.folder.disk.quota != "none" else "RLIMIT_FSIZE only (per file)",
            "network": "empty net namespace", "cpu_seconds": "RLIMIT_CPU",
            "syscalls": "seccomp (sandbox/seccomp.py)" if syscall_filter else "none", "uid": f"own host uid {self.uid}",
        }

    def _root_args(self) -> list[str]:
        """The root the jail sees: the whole of a built root filesystem (a case's exported image, the base
        rootfs, or a harness's derived one, whose install may write /opt or /etc), read-only, as docker shows
        a container its image; for 'host' only /usr, the merged-/usr links and a few /etc files (never the
        host's whole root)."""
        if self.rootfs != Path("/"):
            args = []
            for entry in sorted(self.rootfs.iterdir()):
                if entry.name in _MOUNTED_TOP or entry.name == (self.spec.workdir or "").strip("/"):
                    continue
                if entry.is_symlink():
                    args += ["--symlink", os.readlink(entry), f"/{entry.name}"]
                else:
                    args += ["--ro-bind", str(entry), f"/{entry.name}"]
            return args
        args = ["--ro-bind", str(self.rootfs / "usr"), "/usr"]
        for link in ("bin", "lib", "lib64", "sbin"):
            target = self.rootfs / link
            if target.is_symlink():
                args += ["--symlink", os.readlink(target), f"/{link}"]
            elif target.is_dir():
                args += ["--ro-bind", str(target), f"/{link}"]
        for name in _ETC_FILES:
            if (self.rootfs / "etc" / name).exists():
                args += ["--ro-bind", str(self.rootfs / "etc" / name), f"/etc/{name}"]
        return args

    def _bwrap_args(self, cwd: str, env: dict[str, str]) -> list[str]:
        args = ["bwrap", "--unshare-all", "--unshare-user", *_no_nested_userns(), "--die-with-parent",
                "--new-session", "--hostname", "sandbox", *self._root_args()]
        for name in ("passwd", "group"):  # the image's accounts plus this sandbox's own uid
            if self.rootfs == Path("/") or (self.rootfs / "etc" / name).is_file():  # a read-only /etc needs it
                args += ["--ro-bind", str(self.folder.etc / name), f"/etc/{name}"]
        disk = self.folder.disk
        args += ["--proc", "/proc", "--dev", "/dev", "--bind", str(disk.tmp), "/tmp",
                 "--bind", str(disk.workspace), "/workspace", "--ro-bind", str(self.folder.grader), "/grader",
                 "--ro-bind", str(self.folder.run), RUN_INSIDE]
        if self.spec.workdir and self.spec.workdir != "/workspace":
            args += ["--bind", str(disk.workspace), self.spec.workdir]
        args += ["--remount-ro", "/", "--chdir", cwd, "--clearenv"]
        image_env = {**self.image.env, "HOME": "/tmp"} if self.image else {}
        for key, value in {**SANDBOX_ENV, **image_env, **env}.items():
            args += ["--setenv", key, value]
        return args

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult:
        checked = prepare(command, cwd, env)
        if isinstance(checked, ExecResult):
            return checked
        if not all(path.is_dir() for path in self.cgroups.dirs):  # removed under us: limits would not hold
            raise RuntimeError(f"sandbox {self.id}: its cgroups are gone ({self.cgroups.dirs}); not running")
        write_command(self.folder.run, checked.script)
        filter_fd = self.seccomp.open_fd() if self.seccomp else None
        try:
            return self._run(checked, timeout_s, filter_fd)
        finally:
            if filter_fd is not None:
                os.close(filter_fd)

    def _run(self, checked: PreparedCommand, timeout_s: float, filter_fd: int | None) -> ExecResult:
        lim = self.limits
        prlimit = ["prlimit", f"--fsize={lim.disk_mb * 1024 * 1024}", f"--cpu={lim.cpu_seconds}",
                   "--nofile=1024", "--core=0", "--"]
        drop = ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups", "--"]
        bwrap = self._bwrap_args(checked.cwd, checked.env)
        if filter_fd is not None:
            bwrap[1:1] = ["--seccomp", str(filter_fd)]
        # --as-pid-1 + a supervising bash: every process in the jail runs under the seccomp filter. With
        # bwrap's own reaper as pid 1 (same uid, unfiltered) a command could ptrace it, or write its
        # /proc/1/mem, and make any syscall through it. "; exit $?" keeps bash from exec'ing the command,
        # which as pid 1 would ignore its own kill -9.
        inner = [*prlimit, *drop, *bwrap, "--as-pid-1", "--", "bash", "-c", '"$@"; exit $?', "supervisor",
                 "bash", COMMAND_INSIDE]
        join = self.cgroups.join_command()
        argv = ["sh", "-c", f'{join} && exec "$@"', "sh", *inner] if join else inner
        before, free_before = self.cgroups.counters(), self.folder.disk.free_bytes()
        started = time.monotonic()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True, env={"PATH": "/usr/bin:/bin"},
                                pass_fds=() if filter_fd is None else (filter_fd,))
        cap = lim.output_kb * 1024
        assert proc.stdout is not None and proc.stderr is not None  # both PIPE
        out, err = CappedReader(proc.stdout, cap), CappedReader(proc.stderr, cap)
        timed_out = False
        try:
            code = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            self._kill(proc)
            code = proc.wait()
        self.cgroups.kill_all()  # nothing started by this exec outlives it
        code = 128 - code if code < 0 else code  # killed by signal N: report 128+N, as a shell would
        notes = limit_notices(lim, exit_code=code, timed_out=timed_out, timeout_s=timeout_s, before=before,
                              after=self.cgroups.counters(), disk_free=(free_before, self.folder.disk.free_bytes()))
        return ExecResult(exit_code=code, stdout=out.text(), stderr=with_notices(err.text(), notes),
                          timed_out=timed_out, duration_s=time.monotonic() - started,
                          stdout_dropped=out.dropped, stderr_dropped=err.dropped)

    def pin_cpus(self, cpus: str) -> contextlib.AbstractContextManager[bool]:
        """Run this sandbox's commands on ``cpus`` only, for the block (a timing step's reserved core)."""
        return self.cgroups.pinned(cpus)

    def _kill(self, proc: subprocess.Popen) -> None:
        self.cgroups.kill_all()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 9)

    def destroy(self) -> None:
        self.cgroups.destroy()
        self.folder.destroy()


class BubblewrapBackend:
    name = "bubblewrap"
    network_free = True  # an empty net namespace (splits/grants.py relies on it)

    def __init__(self, image: str = "host"):
        self.rootfs = Path("/") if image == "host" else Path(image)
        if not (self.rootfs / "usr").is_dir():
            raise ValueError(f"sandbox.image {image!r}: not a root filesystem (no usr/ inside); use 'host' "
                             f"or the path of a debootstrapped root (nightshift build-image --rootfs-only)")
        if shutil.which("bwrap") is None:
            raise RuntimeError("bubblewrap is not installed: apt-get install bubblewrap")
        _check_searchable(sandbox_root())
        probe = CgroupSet(f"probe-{uuid.uuid4().hex[:6]}")  # not PREFIX: no reaper ever sees it
        self.use_cgroups = probe.create(SandboxLimits())  # False: no writable cgroups here, rlimits only
        probe.destroy()
        try:
            self.seccomp = seccomp.compiled()  # required: a jail without its filter is never run
        except seccomp.SeccompUnavailable as exc:
            raise RuntimeError(f"sandbox.backend 'bubblewrap': {exc}") from exc

    def identity(self) -> str:
        """Content identity of the root the jail sees: OS release, installed packages, bwrap version."""
        digest = hashlib.sha256()
        for rel in ("etc/os-release", "var/lib/dpkg/status"):
            path = self.rootfs / rel
            digest.update(path.read_bytes() if path.is_file() else b"-")
        digest.update(subprocess.run(["bwrap", "--version"], capture_output=True).stdout)
        digest.update(self.seccomp.bpf)  # the syscall filter is part of what a trial runs under
        return f"rootfs:{self.rootfs}:sha256:{digest.hexdigest()}"

    def create(self, spec: SandboxSpec) -> BubblewrapSandbox:
        if spec.sidecars:
            raise ValueError(f"sidecars {[s.name for s in spec.sidecars]}: the bubblewrap backend runs no service "
                             f"containers; use sandbox.backend docker for this case")
        if spec.image and Path(spec.image).is_dir():  # a case's own root filesystem folder
            return BubblewrapSandbox(spec, Path(spec.image), self.use_cgroups, self.seccomp)
        image = exported_rootfs(spec.image) if spec.image else None
        return BubblewrapSandbox(spec, self.rootfs, self.use_cgroups, self.seccomp, image=image)

    def reap(self, keep_run_ids: set[str] | None = None) -> int:
        """Remove sandboxes whose creating process is gone; never touch folders without our owner file."""
        removed = 0
        for folder in orphaned_folders(PREFIX, keep_run_ids):
            CgroupSet.attach(folder.path.name).destroy()
            folder.destroy()
            removed += 1
        root = sandbox_root()
        for name in CgroupSet.leftovers():
            if name.startswith(PREFIX) and not (root / name).exists():
                CgroupSet.attach(name).destroy()
        CgroupSet.prune_empty_scopes()
        uids.prune()
        return removed


@functools.cache
def _no_nested_userns() -> tuple[str, ...]:
    """bwrap >= 0.8 can forbid new user namespaces inside the jail (less kernel surface); older cannot."""
    usage = subprocess.run(["bwrap", "--help"], capture_output=True, text=True).stdout
    return ("--disable-userns",) if "--disable-userns" in usage else ()


def _accounts(rootfs: Path) -> tuple[str, str]:
    """The root's own /etc/passwd and /etc/group, which every sandbox's copy extends by its user."""
    texts = []
    for name in ("passwd", "group"):
        path = rootfs / "etc" / name
        texts.append(path.read_text(errors="replace") if path.is_file() else "")
    return texts[0], texts[1]


def _check_searchable(root: Path) -> None:
    """bwrap runs as the sandbox uid and must reach the sandbox folders through every parent of the root."""
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    for folder in [root, *root.parents]:
        if not folder.stat().st_mode & 0o001:
            raise RuntimeError(f"NIGHTSHIFT_SANDBOX_ROOT {root}: {folder} is not searchable by other users "
                               f"(each jail runs as its own unprivileged uid); chmod o+x it or pick another folder")
