"""Build the sandbox base image without a registry: debootstrap a minimal Debian, then docker import.

Owns the recipe of the base image (suite, packages, mount points, the sandbox user) and its cache.
The content key hashes the recipe and the mirror's Release file, so nothing is rebuilt while both
are unchanged, and a new point release of the suite builds a new image. One build serves both
backends: ``<cache>/<key>/rootfs`` is a bubblewrap ``image:``, and the docker image imported from
``rootfs.tar`` is pinned by its id. Prints the docker image id (or, with --rootfs-only, the rootfs).

    nightshift build-image                 # needs root and a docker engine (from a checkout or a wheel)
    nightshift build-image --rootfs-only   # bubblewrap only, no docker
    .venv/bin/python scripts/build_sandbox_image.py   # the same, kept for CI and old instructions
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import docker

from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.images import BuiltImage, image_cache

RECIPE: dict[str, Any] = {
    "format": 1,  # bump when the steps below change what ends up in the image
    "suite": "bookworm",
    "variant": "minbase",
    "arch": "amd64",
    "include": ["python3", "git", "procps", "ca-certificates"],
    "user": "65534:65534",
}
REPOSITORY = "nightshift/sandbox"
DOCKER_CHANGES = [
    "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "ENV LANG=C.UTF-8", "ENV HOME=/tmp", "USER 65534:65534", "WORKDIR /workspace",
    'CMD ["sleep", "infinity"]',
]


def log(message: str) -> None:
    print(f"[build-sandbox-image] {message}", file=sys.stderr, flush=True)


def debian_mirror(suite: str) -> str:
    """The Debian mirror apt uses on this machine (deb822 or one-line sources), else deb.debian.org."""
    sources = sorted(Path("/etc/apt").glob("sources.list.d/*.sources"))
    for path in sources:
        for stanza in path.read_text().split("\n\n"):
            fields = dict(re.findall(r"^(\w[\w-]*):\s*(.+)$", stanza, flags=re.M))
            if suite in fields.get("Suites", "").split() and "security" not in fields.get("URIs", ""):
                return fields["URIs"].split()[0].rstrip("/")
    for path in [Path("/etc/apt/sources.list"), *Path("/etc/apt").glob("sources.list.d/*.list")]:
        for line in path.read_text().splitlines() if path.is_file() else []:
            match = re.match(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+(\S+)", line)
            if match and match.group(2) == suite:
                return match.group(1).rstrip("/")
    return "http://deb.debian.org/debian"


def release_digest(mirror: str, suite: str) -> str | None:
    """sha256 of the suite's Release file: changes exactly when the mirror's package set does."""
    try:
        with urllib.request.urlopen(f"{mirror}/dists/{suite}/Release", timeout=20) as reply:
            return hashlib.sha256(reply.read()).hexdigest()
    except OSError as exc:
        log(f"cannot read the Release file from {mirror} ({exc}); reusing the last build of this recipe")
        return None


def content_key(release: str) -> str:
    blob = json.dumps({"recipe": RECIPE, "release": release}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def build_rootfs(target: Path, mirror: str, debs: Path) -> None:
    """debootstrap into a scratch folder, trim it, add the mount points, then move it into place."""
    scratch = target.with_name(target.name + ".partial")
    shutil.rmtree(scratch, ignore_errors=True)
    debs.mkdir(parents=True, exist_ok=True)
    command = ["debootstrap", f"--variant={RECIPE['variant']}", f"--arch={RECIPE['arch']}",
               f"--include={','.join(RECIPE['include'])}", f"--cache-dir={debs}",
               RECIPE["suite"], str(scratch), mirror]
    log(" ".join(command))
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    for junk in ("var/cache/apt/archives", "var/lib/apt/lists", "var/log"):
        for path in (scratch / junk).glob("*"):
            if path.is_file():
                path.unlink()
    for mount_point in ("workspace", "grader"):
        (scratch / mount_point).mkdir(mode=0o755, exist_ok=True)
    (scratch / "etc/hostname").write_text("sandbox\n")
    (scratch / "etc/hosts").write_text("127.0.0.1 localhost sandbox\n::1 localhost\n")
    (scratch / "etc/machine-id").write_text("")
    scratch.rename(target)


def write_tarball(rootfs: Path, tarball: Path) -> str:
    partial = tarball.with_suffix(".partial")
    subprocess.run(["tar", "--sort=name", "--numeric-owner", "--xattrs", "-C", str(rootfs), "-cf",
                    str(partial), "."], check=True)
    digest = hashlib.sha256()
    with partial.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    partial.rename(tarball)
    return digest.hexdigest()


def docker_import(build: BuiltImage, force: bool) -> str:
    """Import the tarball once per key; the tag nightshift/sandbox:<key> says it is already there."""

    client = docker_engine("nightshift build-image imports the base image into docker",
                           "start dockerd, or pass --rootfs-only for bubblewrap")
    tag = f"{REPOSITORY}:{build.key}"
    if force:
        with contextlib.suppress(docker.errors.ImageNotFound):
            client.images.remove(tag)
    try:
        image = client.images.get(tag)
        log(f"{tag} already imported")
    except docker.errors.ImageNotFound:
        log(f"docker import {build.tarball} -> {tag}")
        changes = [*DOCKER_CHANGES, f"LABEL org.nightshift.image-key={build.key}",
                   f"LABEL org.nightshift.rootfs-sha256={build.tar_sha256}"]
        client.api.import_image(src=str(build.tarball), repository=REPOSITORY, tag=build.key, changes=changes)
        image = client.images.get(tag)
    image.tag(REPOSITORY, RECIPE["suite"])
    return image.id


def build(cache: Path, force: bool, with_docker: bool) -> BuiltImage:
    cache.mkdir(parents=True, exist_ok=True)
    mirror = debian_mirror(RECIPE["suite"])
    release = release_digest(mirror, RECIPE["suite"])
    latest = cache / "latest.json"
    if release is None and latest.is_file():
        key = json.loads(latest.read_text())["key"]
    else:
        key = content_key(release or "unknown")
    folder = cache / key
    record = folder / "build.json"
    if force:
        shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(exist_ok=True)
    if record.is_file():
        found = BuiltImage.model_validate_json(record.read_text())
        log(f"content key {key} unchanged: reusing {folder}")
    else:
        started = time.monotonic()
        rootfs = folder / "rootfs"
        if not (rootfs / "usr").is_dir():
            build_rootfs(rootfs, mirror, cache / "debs")
        tar_sha = write_tarball(rootfs, folder / "rootfs.tar")
        found = BuiltImage(key=key, recipe={**RECIPE, "mirror": mirror, "release_sha256": release},
                           rootfs=rootfs, tarball=folder / "rootfs.tar", tar_sha256=tar_sha,
                           built_at=datetime.now(UTC).isoformat(timespec="seconds"))
        log(f"rootfs built in {time.monotonic() - started:.0f}s: {rootfs}")
    if with_docker:
        found.image_id = docker_import(found, force)
    record.write_text(found.model_dump_json(indent=2) + "\n")
    latest.write_text(found.model_dump_json(indent=2) + "\n")
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cache-dir", type=Path, default=None, help="default: $NIGHTSHIFT_IMAGE_CACHE, "
                        "/var/cache/nightshift/images (root) or .nightshift/images")
    parser.add_argument("--rootfs-only", action="store_true", help="skip docker import; print the rootfs path")
    parser.add_argument("--force", action="store_true", help="rebuild even when the content key is unchanged")


def run(args: argparse.Namespace) -> int:
    if os.geteuid() != 0:
        log("needs root: debootstrap, and files owned by root in the image (run it with sudo)")
        return 2
    if shutil.which("debootstrap") is None:
        log("debootstrap is not installed: apt-get install -y debootstrap (Debian/Ubuntu), then run this again")
        return 2
    cache = args.cache_dir or image_cache()
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # CI and a developer (or two test sessions) may build at once
        found = build(cache, args.force, with_docker=not args.rootfs_only)
    print(found.rootfs if args.rootfs_only else found.image_id)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
