"""Shared by the sandbox tests: build each backend or skip with the reason, and prove nothing leaked.

A backend that cannot run here (no root, no engine, no built image) is skipped with a reason, never passed
silently and never swapped for something else: bubblewrap without the built root filesystem is unavailable, not
run on the host's root. Where NIGHTSHIFT_REQUIRE_BACKENDS names it (CI), it fails instead (tests/host_support.py).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from nightshift.contracts import SandboxLimits, SandboxSpec
from nightshift.sandbox.cgroups import CgroupSet
from nightshift.sandbox.folder import sandbox_root
from nightshift.sandbox.images import latest_build
from nightshift.sandbox.uids import lease_dir
from tests.host_support import unavailable

BACKENDS = ["bubblewrap", "docker"]
SMALL = SandboxLimits(cpus=1, memory_mb=128, pids=64, disk_mb=64, output_kb=64, cpu_seconds=60)


NO_IMAGE = "no sandbox image built; run: .venv/bin/python scripts/build_sandbox_image.py"


def backend_image(name: str) -> str:
    """The built image the tests run ``name`` on; unavailable without one (bubblewrap never falls back to '/')."""
    build = latest_build()
    if name == "bubblewrap":
        if build is None:
            unavailable(name, NO_IMAGE)
        return str(build.rootfs)
    image = os.environ.get("NIGHTSHIFT_TEST_DOCKER_IMAGE") or (build.image_id if build else None)
    if not image:
        unavailable(name, NO_IMAGE)
    return image


def make_backend(name: str):
    if os.geteuid() != 0:
        unavailable(name, "needs root (per-sandbox uid, cgroups, loop-mounted quota disk)")
    image = backend_image(name)
    try:
        from nightshift.sandbox.factory import backend_for

        return backend_for(name, image)
    except (RuntimeError, ValueError) as exc:
        unavailable(name, str(exc))


class Tracked:
    """A backend that remembers every sandbox it made, so the test can check each one is gone."""

    def __init__(self, backend):
        self.backend = backend
        self.name = backend.name
        self.ids: list[str] = []

    def create(self, spec: SandboxSpec | None = None, **fields):
        spec = spec or SandboxSpec(run_id="test", trial_id=fields.pop("trial_id", "adv"), limits=SMALL, **fields)
        sandbox = self.backend.create(spec)
        self.ids.append(sandbox.id)
        return sandbox

    def __getattr__(self, attr: str):
        return getattr(self.backend, attr)


def leftovers(sandbox_id: str) -> list[str]:
    """Everything of one sandbox still on the host: folder, mounts, cgroups, uid lease, container, processes."""
    found = []
    if (sandbox_root() / sandbox_id).exists():
        found.append(f"folder {sandbox_root() / sandbox_id}")
    found += [f"mount {line.split()[1]}" for line in Path("/proc/self/mounts").read_text().splitlines()
              if sandbox_id in line]
    if sandbox_id in CgroupSet.leftovers():
        found.append(f"cgroup {sandbox_id}")
    leases = lease_dir()
    for lease in leases.iterdir() if leases.is_dir() else []:
        if lease.name.isdigit() and f'"{sandbox_root() / sandbox_id}"' in lease.read_text():
            found.append(f"uid lease {lease.name}")
    procs = subprocess.run(["pgrep", "-af", sandbox_id], capture_output=True, text=True).stdout.strip()
    found += [f"process {line}" for line in procs.splitlines() if "pgrep" not in line]
    if sandbox_id.startswith("nsd-"):
        import docker

        containers = docker.from_env().containers.list(all=True, filters={"name": f"^{sandbox_id}$"})
        found += [f"container {c.name}" for c in containers]
    return found


def host_processes(pattern: str) -> list[str]:
    out = subprocess.run(["pgrep", "-af", pattern], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]
