"""Build a stand-in for a registry base image (``nightshift build-image --as python:3.12-slim``).

On top of the project's debootstrap Debian image (sandbox/base_image.py), with the recipe of
sandbox/standins.py and the context of sandbox/standin_recipe.py. Cached by content: the key hashes the
Dockerfile (which names the base image by id) and every file it copies, and a build whose content tag
``nightshift/standin:<name>-<key>`` exists is reused. The result is pinned by image id, labelled with what
it stands in for and what differs, and tagged with the registry names themselves, so an unmapped ``FROM
python:3.12-slim`` finds it; a name already held by an image that is not a stand-in (a real pull) is left
alone. What differs is printed on every call, not only the first.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import re
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import docker
from pydantic import BaseModel

from nightshift.sandbox import base_image
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.images import BuiltImage, image_cache
from nightshift.sandbox.standin_recipe import context_hash, dockerfile, write_context
from nightshift.sandbox.standins import REAL_PATH, StandIn, normalise, standin_for

REPOSITORY = "nightshift/standin"
ROOT_REPOSITORY = "nightshift/standin-root"
LABEL = "org.nightshift.stands-in-for"


class StandInBuild(BaseModel):
    """One built stand-in: pinned by image id, with what differs from the real image."""

    name: str
    names: list[str]
    key: str
    image_id: str
    tag: str
    base_image_id: str
    python_version: str | None = None
    differs: list[str]
    tagged: list[str]
    probe: str = ""
    size_bytes: int = 0
    build_s: float = 0.0
    built_at: str = ""


def log(message: str) -> None:
    print(f"[build-image --as] {message}", file=sys.stderr, flush=True)


def _root_image(client, base: BuiltImage) -> str:
    """The base rootfs imported with docker's default config only: no sandbox USER, WORKDIR, HOME or LANG."""
    tag = f"{ROOT_REPOSITORY}:{base.key}"
    try:
        return client.images.get(tag).id
    except docker.errors.ImageNotFound:
        log(f"docker import {base.tarball} -> {tag} (once per base image)")
        client.api.import_image(src=str(base.tarball), repository=ROOT_REPOSITORY, tag=base.key,
                                changes=[f"ENV PATH={REAL_PATH}", f"LABEL org.nightshift.image-key={base.key}"])
        return client.images.get(tag).id


def _debian_python(client, root_id: str) -> str:
    out = client.containers.run(root_id, ["python3", "-c", "import platform; print(platform.python_version())"],
                                remove=True, network_mode="none")
    return out.decode().strip()


def _differs(standin: StandIn, python_version: str | None, cas: list[str]) -> list[str]:
    found = []
    if standin.python and python_version and not python_version.startswith(standin.python + "."):
        found.append(f"PYTHON {python_version}, NOT {standin.python}: Debian bookworm's apt archive has only "
                     f"{'.'.join(python_version.split('.')[:2])} and PyPI has no CPython builds; code that needs "
                     f"{standin.python} features fails here, and /usr/local/bin/python{standin.python} does not exist")
    if cas:
        found.append(f"trusts this machine's local CAs ({', '.join(cas)}) so that build-time pip reaches PyPI "
                     f"through its TLS proxy (trials have no network)")
    return found + standin.differs


def _probe(client, image_id: str, standin: StandIn) -> str:
    """Run what tasks rely on in the new image; a failure here fails the build, it is not recorded and shipped."""
    if standin.kind == "uv":
        out = client.containers.run(image_id, ["--version"], remove=True, network_mode="none")
        return out.decode().strip()
    script = "command -v bash && command -v apt-get"
    if standin.kind == "python":
        script = ("set -e; for c in python python3 pip pip3; do command -v $c; done; python --version; pip --version; "
                  "python -c 'import sys, ssl, sqlite3; print(sys.executable, sys.prefix)'; "
                  "python -m venv /tmp/probe-venv && /tmp/probe-venv/bin/python -m pip --version")
    try:
        out = client.containers.run(image_id, ["sh", "-c", script], remove=True, network_mode="none",
                                    entrypoint=[], stderr=True)
    except docker.errors.ContainerError as exc:
        said = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else str(exc)
        raise RuntimeError(f"stand-in {standin.name}: the built image fails its probe ({script}): {said}") from exc
    return out.decode().strip()


def _tag_names(client, image, standin: StandIn) -> list[str]:
    tagged = []
    for full in dict.fromkeys(normalise(name) for name in standin.names):
        repository, _, tag = full.rpartition(":")
        with contextlib.suppress(docker.errors.ImageNotFound):
            held = client.images.get(full)
            if held.id != image.id and LABEL not in (held.labels or {}):
                log(f"NOT tagging {full}: that name holds a real image ({held.short_id}); FROM {full} builds on it")
                continue
        image.tag(repository, tag)
        tagged.append(full)
    return tagged


def _say_differs(build: StandInBuild) -> None:
    log(f"{build.name} is a STAND-IN built here, not the registry image. What differs:")
    for line in build.differs:
        log(f"  {'!!' if line.startswith('PYTHON') else '- '} {line}")


def _build(client, standin: StandIn, cache: Path, base: BuiltImage | None, force: bool) -> StandInBuild:
    root_id = _root_image(client, base) if base is not None else "scratch"
    python_version = _debian_python(client, root_id) if standin.kind == "python" else None
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", normalise(standin.name))[:100]
    with tempfile.TemporaryDirectory(prefix="nightshift-standin-") as tmp:
        context = Path(tmp)
        wheels, cas = write_context(standin, cache, context)
        differs = _differs(standin, python_version, cas)
        unkeyed = dockerfile(standin, root_id, python_version, wheels, "", differs, cas)
        key = hashlib.sha256((unkeyed + context_hash(context)).encode()).hexdigest()[:16]
        tag = f"{REPOSITORY}:{slug}-{key}"
        record = cache / "standins" / f"{slug}-{key}.json"
        if force:
            with contextlib.suppress(docker.errors.ImageNotFound):
                client.images.remove(tag, force=True)
        with contextlib.suppress(docker.errors.ImageNotFound):
            image = client.images.get(tag)
            if record.is_file():
                log(f"{standin.name}: recipe unchanged (key {key}): reusing {tag}")
                found = StandInBuild.model_validate_json(record.read_text())
                found.tagged = _tag_names(client, image, standin)
                return found
        (context / "Dockerfile").write_text(dockerfile(standin, root_id, python_version, wheels, key, differs, cas))
        log(f"building {tag} for {standin.name}")
        started = time.monotonic()
        try:
            image, _ = client.images.build(path=str(context), tag=tag, rm=True, forcerm=True, pull=False,
                                           nocache=force, timeout=1800)
        except docker.errors.BuildError as exc:
            text = "".join(str(c.get("stream", "")) for c in exc.build_log if isinstance(c, dict))
            raise RuntimeError(f"stand-in {standin.name}: docker build failed: {exc.msg}\n{text[-2000:]}") from exc
        build_s = time.monotonic() - started
    found = StandInBuild(name=standin.name, names=standin.names, key=key, image_id=image.id, tag=tag,
                         base_image_id=root_id, python_version=python_version, differs=differs, tagged=[],
                         probe=_probe(client, image.id, standin), size_bytes=int(image.attrs.get("Size") or 0),
                         build_s=round(build_s, 1), built_at=datetime.now(UTC).isoformat(timespec="seconds"))
    found.tagged = _tag_names(client, image, standin)
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(found.model_dump_json(indent=2) + "\n")
    log(f"built {tag} in {build_s:.0f}s, {found.size_bytes / 1e6:.0f} MB")
    return found


def build_standin(name: str, cache: Path | None = None, force: bool = False) -> StandInBuild:
    """Build (or reuse) the stand-in for ``name``; ValueError for an unknown name, RuntimeError when it fails."""
    standin = standin_for(name)
    cache = cache or image_cache()
    cache.mkdir(parents=True, exist_ok=True)
    client = docker_engine(f"nightshift build-image --as {name} builds a docker image", "start dockerd")
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the base build and two stand-in builds share the cache
        base = base_image.build(cache, force=False, with_docker=False) if standin.kind != "uv" else None
    # the stand-in's own build holds no lock: docker builds of different keys do not collide, the same key is
    # reused (the content tag), and a long build must not stall the base image's other users
    found = _build(client, standin, cache, base, force)
    _say_differs(found)
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--as", dest="standins", action="append", default=[], metavar="IMAGE",
                        help="build a stand-in for a registry base (python:3.12-slim, ubuntu:24.04, "
                             "ghcr.io/astral-sh/uv, ...) on top of the base image; repeat for several")


def run(args: argparse.Namespace) -> int:
    """The build-image command: the base image, or with --as the stand-ins (building the base first if needed)."""
    if not args.standins:
        return base_image.run(args)
    cache = args.cache_dir or image_cache()
    for name in args.standins:
        try:
            found = build_standin(name, cache, args.force)
        except ValueError as exc:
            log(str(exc))
            return 2
        except RuntimeError as exc:
            log(str(exc))
            return 1
        print(json.dumps({"name": found.name, "image_id": found.image_id, "tag": found.tag,
                          "tagged": found.tagged, "differs": len(found.differs)}))
    return 0
