"""Whether mounts made under a folder reach other mount namespaces (the docker engine's), from mountinfo.

The docker backend bind-mounts each sandbox's workspace from its quota disk, which the backend itself
loop-mounts under the sandbox root. On the host that is one mount namespace. In a shard container
(deployments/docker_pool.py) the loop mount is made in the container's namespace and the engine, on the
host, sees it only if the sandbox root propagates: a shared host mount, bound into the container rshared.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def _entries() -> list[tuple[str, list[str]]]:
    """(mount point, optional fields) of every mount of this process, in mount order."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        found.append((fields[4], fields[6:fields.index("-")]))
    return found


def is_shared_mount(path: Path) -> bool:
    """``path`` is itself a mount point, the topmost mount there is in a peer group ('shared:N')."""
    target = str(path.resolve())
    tops = [optional for point, optional in _entries() if point == target]
    return bool(tops) and any(f.startswith("shared:") for f in tops[-1])


def propagates(path: Path) -> bool:
    """The mount holding ``path`` sends its sub-mounts on (shared, or a slave of the host's peer group)."""
    target, best, optional = str(path.resolve()), "", []
    for point, fields in _entries():
        if (target == point or target.startswith(point.rstrip("/") + "/")) and len(point) >= len(best):
            best, optional = point, fields
    return any(f.startswith(("shared:", "master:")) for f in optional)


def in_container() -> bool:
    return Path("/.dockerenv").exists()  # docker writes it into every container


def engine_shares_mounts() -> bool | None:
    """Whether the docker engine (a visible ``dockerd``) is in this process's mount namespace; None: not visible."""
    own = os.readlink("/proc/self/ns/mnt")
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if proc.name.isdigit() and (proc / "comm").read_text().strip() == "dockerd":
                return os.readlink(proc / "ns" / "mnt") == own
    return None


def engine_sees_mounts_error(sandbox_root: Path) -> str | None:
    """Why sandboxes made here would get empty workspaces from the engine, or None when all is well.

    All is well when the engine shares our mounts (on its host, or docker-in-docker in one container), or
    when the sandbox root propagates them; an engine we cannot see from a container is taken to be outside."""
    shares = engine_shares_mounts()
    if shares or (shares is None and not in_container()) or propagates(sandbox_root):
        return None
    return (f"the docker engine runs in another mount namespace and this sandbox root {sandbox_root} does not "
            f"propagate mounts to it, so it would bind every sandbox an empty workspace: bind it as "
            f"'{sandbox_root}:{sandbox_root}:rshared' from a shared host mount (nightshift docker-worker prepares "
            f"the host; the docker-pool job template mounts it so)")
