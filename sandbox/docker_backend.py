"""The "docker" backend: one long-lived container per trial, commands run with ``docker exec``.

The container runs the pinned image id (sandbox/docker_image.py), with no network (network_mode
none), a read-only root, all capabilities dropped and no-new-privileges, the seccomp profile of
sandbox/seccomp.py, CPU/memory/pids limits and rlimits, and the host folder of sandbox/folder.py bound
in: the quota disk's workspace and tmp at /workspace and /tmp, the grader folder read-only at /grader,
run/ (the command file) read-only at /run/nightshift, and /etc/passwd + /etc/group with the
sandbox's user. Its main process (docker's init and ``sleep``) runs as root, every command as the
sandbox's own uid (sandbox/uids.py), so a command cannot kill the container, and killing "every
process of that uid" is exactly "every process the trial started": when a command's shell exits,
or at its timeout, the host kills them through the container's cgroup, sparing init and ``sleep``
(which also works when a fork bomb leaves no room for one more process). Every container carries
org.nightshift.* labels (sandbox id, run, trial, owner host/pid) for the reaper. The engine must run
on this host: the workspace is a bind mount and the kill goes through the host's cgroup files. In a
shard container (deployments/docker_pool.py) the host's paths, pids and cgroups are shared with it, and
the sandbox root must propagate mounts to the host (sandbox/propagation.py), or the backend refuses.
"""

from __future__ import annotations

import contextlib
import io
import tarfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import docker
from docker.types import LogConfig, Mount, Ulimit

from nightshift.plugin import ExecResult, SandboxLimits, SandboxSpec
from nightshift.sandbox import uids
from nightshift.sandbox.cgroups import CgroupSet
from nightshift.sandbox.command_file import COMMAND_INSIDE, RUN_INSIDE, prepare, write_command
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.docker_exec import exec_output, pump
from nightshift.sandbox.docker_image import ImagePinError, resolve_image
from nightshift.sandbox.folder import FolderFiles, SandboxFolder, orphaned_folders, sandbox_root
from nightshift.sandbox.notices import KILLED, limit_notices, with_notices
from nightshift.sandbox.output import CappedBuffer
from nightshift.sandbox.owner import Owner
from nightshift.sandbox.propagation import engine_sees_mounts_error
from nightshift.sandbox.seccomp import docker_profile
from nightshift.sandbox.sidecars import remove_sidecars, start_sidecars

LABEL = "org.nightshift"
PREFIX = "nsd-"
SANDBOX_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8", "TERM": "dumb"}
# the command file runs in the exec's one shell (exec, no wrapper left behind): a command that kills its
# own shell or every process of its uid ends as on bubblewrap; what it leaves running is killed by
# _wait_exit through the container's cgroup once that shell has exited
_CD_THEN_RUN = 'cd -- "$2" || exit 1; exec bash "$1"'


def sandbox_env(image_env: dict[str, str]) -> dict[str, str]:
    """The image's ENV (a Harbor task's PATH, tool homes) over our defaults; HOME stays in the writable /tmp."""
    return {**SANDBOX_ENV, **image_env, "HOME": "/tmp"}


class DockerSandbox(FolderFiles):
    def __init__(self, client, image_id: str, spec: SandboxSpec, accounts: tuple[str, str] = ("", ""),
                 image_env: dict[str, str] | None = None):
        self.id = f"{PREFIX}{spec.trial_id[:12]}-{uuid.uuid4().hex[:6]}"
        self.spec = spec
        self.limits: SandboxLimits = spec.limits
        self.api = client.api
        self.client = client
        self.network = "none"
        self.folder = SandboxFolder.create(self.id, spec, extra={"container": self.id}, accounts=accounts)
        self.uid = self.folder.uid
        self.env = sandbox_env(image_env or {})
        try:
            if spec.sidecars:  # a private network shared with them only, instead of no network at all
                self.network = start_sidecars(client, self.id, spec.sidecars, self._labels(spec))
            self.container = client.containers.run(image_id, **self._container_args(spec))
            self.container.reload()
            init_pid = int(self.container.attrs["State"]["Pid"])
            self.spare = frozenset({init_pid, _main_child(init_pid)})  # never killed: they keep it running
            self.cgroups = CgroupSet.of_process(init_pid)
        except BaseException:
            self.destroy()
            raise
        self.enforced = {"memory": "docker (cgroup)", "pids": "docker (cgroup)", "cpus": "docker (cgroup)",
                         "disk": "ext4 loop quota" if self.folder.disk.quota != "none" else "RLIMIT_FSIZE only",
                         "network": "network_mode none" if self.network == "none" else
                         f"internal network {self.network} (its sidecars only)", "cpu_seconds": "RLIMIT_CPU",
                         "syscalls": "seccomp profile (sandbox/seccomp.py)", "uid": f"own host uid {self.uid}"}

    def _labels(self, spec: SandboxSpec) -> dict[str, str]:
        return {f"{LABEL}.sandbox": self.id, **Owner.me(spec.run_id, spec.trial_id).labels(LABEL)}

    def _container_args(self, spec: SandboxSpec) -> dict:
        lim, disk = spec.limits, self.folder.disk
        return dict(
            command=["sleep", "infinity"], init=True, user="0:0", detach=True, name=self.id, hostname="sandbox",
            network_mode=self.network, read_only=True, cap_drop=["ALL"],
            security_opt=["no-new-privileges", f"seccomp={docker_profile()}"],
            environment=self.env, working_dir="/workspace", log_config=LogConfig(type="none"),
            nano_cpus=int(lim.cpus * 1e9), mem_limit=lim.memory_mb * 1024 * 1024,
            memswap_limit=lim.memory_mb * 1024 * 1024, pids_limit=lim.pids, shm_size=16 * 1024 * 1024,
            ulimits=[Ulimit(name="fsize", soft=lim.disk_mb << 20, hard=lim.disk_mb << 20),
                     Ulimit(name="cpu", soft=lim.cpu_seconds, hard=lim.cpu_seconds),
                     Ulimit(name="nofile", soft=1024, hard=1024), Ulimit(name="core", soft=0, hard=0)],
            mounts=[Mount("/workspace", str(disk.workspace), type="bind"),
                    Mount("/tmp", str(disk.tmp), type="bind"),
                    Mount("/grader", str(self.folder.grader), type="bind", read_only=True),
                    Mount(RUN_INSIDE, str(self.folder.run), type="bind", read_only=True),
                    *(Mount(f"/etc/{name}", str(self.folder.etc / name), type="bind", read_only=True)
                      for name in ("passwd", "group")),
                    *([Mount(spec.workdir, str(disk.workspace), type="bind")]
                      if spec.workdir and spec.workdir != "/workspace" else [])],
            labels=self._labels(spec),
        )

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace",
             env: dict[str, str] | None = None) -> ExecResult:
        checked = prepare(command, cwd, env)
        if isinstance(checked, ExecResult):
            return checked
        write_command(self.folder.run, checked.script)
        before, free_before = self.cgroups.counters(), self.folder.disk.free_bytes()
        started = time.monotonic()
        exec_id = self.api.exec_create(self.container.id, ["bash", "-c", _CD_THEN_RUN, "sandbox", COMMAND_INSIDE,
                                                           checked.cwd],
                                       user=f"{self.uid}:{self.uid}", workdir="/", environment=checked.env)["Id"]
        cap = self.limits.output_kb * 1024
        out, err = CappedBuffer(cap), CappedBuffer(cap)
        stream = exec_output(self.api, exec_id)
        reader = threading.Thread(target=pump, args=(stream, out, err), daemon=True)
        reader.start()
        code = self._wait_exit(exec_id, reader, started + timeout_s)
        timed_out = code is None
        if code is None:
            self.cgroups.kill_all(spare=self.spare)
            reader.join(5)
            code = KILLED
        self.cgroups.kill_all(spare=self.spare)  # nothing started by this exec outlives it
        notes = limit_notices(self.limits, exit_code=code, timed_out=timed_out, timeout_s=timeout_s,
                              before=before, after=self.cgroups.counters(),
                              disk_free=(free_before, self.folder.disk.free_bytes()))
        return ExecResult(exit_code=code, stdout=out.text(), stderr=with_notices(err.text(), notes),
                          timed_out=timed_out, duration_s=time.monotonic() - started,
                          stdout_dropped=out.dropped, stderr_dropped=err.dropped)

    def _wait_exit(self, exec_id: str, reader: threading.Thread, deadline: float) -> int | None:
        """Exit code of the command's shell once docker records it; None if it still runs at the deadline.

        The stream can end before the shell (it closed its output) or outlive it (a background process
        holds the output open): once the shell has exited, whatever it left is killed, so the stream ends."""
        pause = 0.005
        while True:
            if reader.is_alive():
                reader.join(max(0.0, min(pause, deadline - time.monotonic())))
            else:
                time.sleep(max(0.0, min(pause, deadline - time.monotonic())))
            info = self.api.exec_inspect(exec_id)
            if not info["Running"] and info["ExitCode"] is not None:
                if reader.is_alive():
                    self.cgroups.kill_all(spare=self.spare)
                    reader.join(5)
                return int(info["ExitCode"])
            if time.monotonic() >= deadline:
                return None
            pause = min(pause * 2, 0.1)

    @contextlib.contextmanager
    def pin_cpus(self, cpus: str) -> Iterator[bool]:
        """Run this sandbox's commands on ``cpus`` only, for the block (``docker update --cpuset-cpus``)."""

        try:
            self.api.update_container(self.container.id, cpuset_cpus=cpus)
        except docker.errors.APIError:
            yield False
            return
        try:
            yield True
        finally:
            with contextlib.suppress(docker.errors.APIError):  # every online core again, as it was created
                self.api.update_container(self.container.id, cpuset_cpus=_online_cpus())

    def destroy(self) -> None:
        """Remove the container (which kills everything in it), then the disk and folder."""
        _remove_container(self.api, self.id)
        if self.spec.sidecars:
            remove_sidecars(self.client, self.id)
        self.folder.destroy()


class DockerBackend:
    name = "docker"
    network_free = True  # network_mode none unless a case has sidecars, refused for protected ones (splits/grants.py)

    def __init__(self, image: str | None):
        """``image`` None gives a backend that can only reap (at worker start, before any run is known)."""
        self.client = docker_engine("sandbox.backend 'docker'", "start dockerd, or use backend 'bubblewrap'",
                                    timeout_s=120, pool=64)  # one connection per trial thread
        self.image = image
        if image is not None and (why := engine_sees_mounts_error(sandbox_root())):
            raise RuntimeError(why)  # in a shard container (deployments/docker_pool.py), before any trial starts
        self.image_id = resolve_image(self.client, image) if image is not None else None
        self.accounts = _image_accounts(self.client.api, self.image_id) if self.image_id else ("", "")
        self._images: dict[str, tuple[str, tuple[str, str], dict[str, str]]] = {}
        self._lock = threading.Lock()

    def identity(self) -> str:
        """The image id every container of this run uses (re-checked, so a moved tag is refused here too)."""
        assert self.image is not None, "a reap-only backend (image None) has no identity"
        current = resolve_image(self.client, self.image)
        if current != self.image_id:
            raise ImagePinError(f"sandbox.image {self.image!r} moved from {self.image_id} to {current} "
                                f"during the run; refusing to mix images")
        return f"docker:{self.image_id}"

    def create(self, spec: SandboxSpec) -> DockerSandbox:
        if spec.image is None:
            assert self.image_id is not None, "a reap-only backend (image None) creates no sandboxes"
            return DockerSandbox(self.client, self.image_id, spec, self.accounts)
        image_id, accounts, env = self._case_image(spec.image)
        return DockerSandbox(self.client, image_id, spec, accounts, image_env=env)

    def _case_image(self, image: str) -> tuple[str, tuple[str, str], dict[str, str]]:
        """A case's own image (by id, as its case.toml pins it), its accounts and the ENV its Dockerfile set."""
        with self._lock:
            if image not in self._images:
                image_id = resolve_image(self.client, image)
                config = self.client.images.get(image_id).attrs.get("Config") or {}
                env = dict(item.partition("=")[::2] for item in config.get("Env") or [])
                self._images[image] = (image_id, _image_accounts(self.client.api, image_id), env)
            return self._images[image]

    def reap(self, keep_run_ids: set[str] | None = None) -> int:
        """Remove containers (sidecars too), networks and folders whose creator is dead; anything without our
        label is never touched."""

        removed: set[str] = set()
        # the engine's list as it is (no inspect per container: one removed meanwhile by its live owner, another
        # worker's trial ending, made containers.list() raise NotFound and stop the night before it began)
        for container in self.client.api.containers(all=True, filters={"label": f"{LABEL}.sandbox"}):
            labels = container.get("Labels") or {}
            owner = Owner.from_labels(labels, LABEL)
            if owner is not None and owner.orphaned(keep_run_ids):
                _remove_container(self.client.api, container["Id"])
                removed.add(labels[f"{LABEL}.sandbox"])
        for network in self.client.networks.list(filters={"label": f"{LABEL}.sandbox"}):
            owner = Owner.from_labels(network.attrs.get("Labels") or {}, LABEL)
            if owner is not None and owner.orphaned(keep_run_ids):  # its containers are gone by now
                with contextlib.suppress(docker.errors.APIError):
                    network.remove()
        for folder in orphaned_folders(PREFIX, keep_run_ids):
            folder.destroy()
            removed.add(folder.path.name)
        uids.prune()
        return len(removed)


def _image_accounts(api, image_id: str) -> tuple[str, str]:
    """The image's /etc/passwd and /etc/group (read once from a container that never starts)."""


    container = api.create_container(image_id, command=["true"], network_disabled=True)["Id"]
    try:
        texts = []
        for name in ("passwd", "group"):
            try:
                stream, _ = api.get_archive(container, f"/etc/{name}")
            except docker.errors.NotFound:
                texts.append("")
                continue
            with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
                member = tar.extractfile(name)
                texts.append(member.read().decode(errors="replace") if member else "")
        return texts[0], texts[1]
    finally:
        _remove_container(api, container)


def _online_cpus() -> str:
    """The host's online cores as a cpuset list ('0-15')."""
    return Path("/sys/devices/system/cpu/online").read_text().strip()


def _main_child(init_pid: int) -> int:
    """The container's ``sleep`` (docker-init's child); waits for docker-init to start it."""
    children = Path(f"/proc/{init_pid}/task/{init_pid}/children")
    deadline = time.monotonic() + 10
    while not (found := children.read_text().split()) and time.monotonic() < deadline:
        time.sleep(0.01)
    if not found:
        raise RuntimeError(f"container init {init_pid} started no main process within 10 s")
    return int(found[0])


def _remove_container(api, name: str) -> None:
    with contextlib.suppress(docker.errors.NotFound):
        api.remove_container(name, force=True, v=True)
