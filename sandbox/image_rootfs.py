"""A docker image's root filesystem on disk, so the bubblewrap backend runs the same image as docker.

``exported_rootfs(image_id)`` exports the image once (``docker create`` + ``docker export``) into the
image cache under its id, with the image's ENV and WORKDIR beside it, and reuses it afterwards. The
id is content-addressed, so an export never goes stale. Export is serialised by a file lock.
"""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.images import image_cache

_ID = re.compile(r"^sha256:[0-9a-f]{64}$")


@dataclass
class ExportedImage:
    rootfs: Path
    env: dict[str, str]
    workdir: str


def _client():
    return docker_engine("this case runs the docker image its case.toml pins, and bubblewrap needs the docker "
                         "engine once to export its root filesystem", "start dockerd, or use the docker backend")


def exported_rootfs(image_id: str) -> ExportedImage:
    """The exported root of ``image_id`` (a sha256 id), exporting it on first use."""
    if not _ID.match(image_id):
        raise ValueError(f"image {image_id!r}: bubblewrap runs case images by id (sha256:<64 hex>); re-import the "
                         f"suite so its case.toml pins the id")
    folder = image_cache() / "exports" / image_id.removeprefix("sha256:")[:32]
    record = folder / "image.json"
    if not record.is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        with open(folder.parent / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not record.is_file():
                _export(image_id, folder)
    meta = json.loads(record.read_text())
    return ExportedImage(rootfs=folder / "rootfs", env=meta["env"], workdir=meta["workdir"])


def _export(image_id: str, folder: Path) -> None:
    client = _client()
    config = client.images.get(image_id).attrs.get("Config") or {}
    tmp = folder.with_name(folder.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "rootfs").mkdir(parents=True)
    container = client.containers.create(image_id, command=["true"], entrypoint=[], network_mode="none")
    try:
        untar = subprocess.Popen(["tar", "-x", "--numeric-owner", "-C", str(tmp / "rootfs")], stdin=subprocess.PIPE)
        assert untar.stdin is not None
        for chunk in container.export():
            untar.stdin.write(chunk)
        untar.stdin.close()
        if untar.wait() != 0:
            raise RuntimeError(f"exporting image {image_id}: tar exited {untar.returncode}")
    finally:
        container.remove(force=True)
    env = dict(item.partition("=")[::2] for item in config.get("Env") or [])
    (tmp / "image.json").write_text(json.dumps({"id": image_id, "env": env,
                                                "workdir": config.get("WorkingDir") or ""}))
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
