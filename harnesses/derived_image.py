"""Derived sandbox images: a base image plus a command harness's `install` lines, built once per content.

The content key hashes the base image's identity and the install commands, so the same harness on the
same base reuses its image, and a changed line or a new base builds a new one. Install commands run as
root WITH network (the only time a sandbox image may reach PyPI or a Debian mirror), with the host's CA
bundle bound in for TLS (never baked into the image); trials then run the result with no network.

* docker: a container from the base image id, the commands `docker exec`ed in it, `docker commit`ed as
  nightshift/derived:<key> and pinned by the committed image's id.
* bubblewrap: a copy of the base rootfs (reflinked where the filesystem can) with the commands run in it
  under bwrap as root, moved into <image cache>/derived/<key>/rootfs only when every command succeeded.

A failing command raises InstallError with its output; nothing is cached, so the next run tries again.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from nightshift.errors import HarnessError
from nightshift.sandbox import committed_image
from nightshift.sandbox.committed_image import BUILD_ENV, HOST_CA
from nightshift.sandbox.images import image_cache

FORMAT = 1  # bump when how a derived image is made changes what ends up in it
REPOSITORY = "nightshift/derived"
LABEL = "org.nightshift.derived"
OUTPUT_TAIL = 4000


class InstallError(HarnessError, RuntimeError):
    """An install command failed; the message holds the command, its exit code and its output's tail."""

    def __init__(self, message: str):
        super().__init__("install", message)  # the variant's harness.install lines


@dataclass(frozen=True)
class DerivedImage:
    key: str
    image: str  # docker: the committed image id; bubblewrap: the rootfs path
    built: bool  # False: reused from the cache
    seconds: float


def content_key(base_identity: str, install: list[str]) -> str:
    blob = json.dumps({"format": FORMAT, "base": base_identity, "install": install}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _failed(index: int, command: str, code: int, output: str,
            fix: str = "fix the command in the variant's harness.install") -> InstallError:
    return InstallError(f"install command {index + 1} failed with exit code {code}: {command}\n"
                        f"--- its output (last {OUTPUT_TAIL} characters) ---\n{output[-OUTPUT_TAIL:]}\n"
                        f"nothing was cached; {fix}")


def docker_derived(client, base_image_id: str, install: list[str]) -> DerivedImage:
    """The committed image for `install` on `base_image_id`, built now unless its key is already here."""
    key = content_key(f"docker:{base_image_id}", install)
    changes = ["USER 65534:65534", "WORKDIR /workspace", 'CMD ["sleep", "infinity"]']
    return commit_image(client, base_image_id, install, key=key, repository=REPOSITORY, label=LABEL, changes=changes)


def commit_image(client, base_image_id: str, commands: list[str], *, key: str, repository: str, label: str,
                 changes: list[str], mounts: list | None = None, fix: str | None = None) -> DerivedImage:
    """``repository:key``: a container of the base with ``commands`` run in it as root (network, the host's CA
    bound in, ``mounts`` too), committed with ``changes``; reused while an image with that key label is here."""
    try:
        image, built, seconds = committed_image.commit_image(client, base_image_id, commands, key=key,
                                                             repository=repository, label=label, changes=changes,
                                                             mounts=mounts)
    except committed_image.CommandFailed as failed:
        raise _failed(failed.index, failed.command, failed.code, failed.output, *([fix] if fix else [])) from None
    return DerivedImage(key, image, built, seconds)


def bubblewrap_derived(base_rootfs: Path, base_identity: str, install: list[str]) -> DerivedImage:
    """A cached rootfs: the base rootfs copied, the install commands run in it as root with network."""
    started = time.monotonic()
    key = content_key(base_identity, install)
    folder = image_cache() / "derived" / key
    rootfs = folder / "rootfs"
    with committed_image.build_lock(key):
        if (rootfs / "usr").is_dir():
            return DerivedImage(key, str(rootfs), False, time.monotonic() - started)
        scratch = folder / f"rootfs.partial-{os.getpid()}"
        shutil.rmtree(scratch, ignore_errors=True)
        folder.mkdir(parents=True, exist_ok=True)
        try:
            subprocess.run(["cp", "-a", "--reflink=auto", f"{base_rootfs}/.", str(scratch)], check=True)
            for index, command in enumerate(install):
                proc = subprocess.run(_bwrap_root(scratch, command), stdin=subprocess.DEVNULL, capture_output=True,
                                      text=True, errors="replace")
                if proc.returncode != 0:
                    raise _failed(index, command, proc.returncode, proc.stdout + proc.stderr)
            scratch.rename(rootfs)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return DerivedImage(key, str(rootfs), True, time.monotonic() - started)


def _bwrap_root(root: Path, command: str) -> list[str]:
    """bwrap as real root over the scratch copy: all capabilities (apt drops to _apt), host network + DNS."""
    # /tmp 1777: apt drops to _apt for gpgv, which writes its temporary config there (bwrap's tmpfs is 0755)
    args = ["bwrap", "--bind", str(root), "/", "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--tmpfs", "/tmp",
            "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--cap-add", "ALL",
            "--ro-bind", "/etc/resolv.conf", "/etc/resolv.conf", "--clearenv"]
    if HOST_CA.is_file():
        args += ["--ro-bind", str(HOST_CA), str(HOST_CA)]
    for name, value in BUILD_ENV.items():
        args += ["--setenv", name, value]
    return [*args, "--chdir", "/", "sh", "-c", command]
