"""Which of nightshift's cached harness images a kept run still references, and removing the others
(``nightshift images --prune``).

A command harness's derived image (harnesses/derived_image.py) is cached by content and rebuilt when missing, so
nothing removes it on its own; this does, on request, and never one that a run in the given output folders pins in
its manifest (its harness image, its case images, its sandbox image): a run keeps its images as long as its folder
is kept, so `nightshift replay --harness pinned` still finds them. Only derived images are candidates: a sandbox
base image or a suite's case image is the user's, made by `build-image` or `import-suite`.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import docker

from nightshift.harnesses.derived_image import LABEL
from nightshift.sandbox.committed_image import build_lock
from nightshift.sandbox.images import image_cache


@dataclass
class CachedImage:
    kind: str  # 'docker' (an image id) or 'rootfs' (a bubblewrap root filesystem folder)
    ref: str
    key: str  # the derived image's content key
    runs: list[str] = field(default_factory=list)  # the kept runs that pin it


def manifest_refs(manifest: dict) -> set[str]:
    """Every image a run's manifest pins, as docker ids (no 'docker:' prefix) and rootfs paths."""
    refs = {manifest.get("sandbox_image", ""), manifest.get("sandbox_identity", "")}
    refs |= set(manifest.get("case_images", {}).values())
    for harness in manifest.get("harnesses", {}).values():
        refs.add(harness.get("image", ""))
        refs |= set(harness.get("case_images", {}).values())
    plain = {r.removeprefix("docker:") for r in refs if r}
    return {r.removeprefix("rootfs:").rsplit(":sha256:", 1)[0] if r.startswith("rootfs:") else r for r in plain}


def kept_runs(output_dirs: Iterable[Path]) -> dict[str, set[str]]:
    """run id -> the images its manifest pins, for every run folder under ``output_dirs``."""
    runs = {}
    for output_dir in output_dirs:
        for path in sorted(Path(output_dir).glob("*/manifest.json")):
            try:
                runs[path.parent.name] = manifest_refs(json.loads(path.read_text()))
            except (OSError, json.JSONDecodeError, AttributeError):
                continue  # not a manifest we can read: it references nothing we could keep for it
    return runs


def cached_images(client: docker.DockerClient | None) -> list[CachedImage]:
    """The derived images on this host: bubblewrap rootfs folders in the image cache, docker images by label."""
    found = [CachedImage("rootfs", str(rootfs), rootfs.parent.name)
             for rootfs in sorted((image_cache() / "derived").glob("*/rootfs"))]
    if client is not None:
        for image in client.images.list(filters={"label": f"{LABEL}.key"}):
            found.append(CachedImage("docker", str(image.id), image.labels.get(f"{LABEL}.key", "")))
    return found


def survey(output_dirs: Iterable[Path], client: docker.DockerClient | None) -> list[CachedImage]:
    """Each cached derived image with the kept runs that pin it."""
    runs = kept_runs(output_dirs)
    images = cached_images(client)
    for image in images:
        image.runs = sorted(run for run, refs in runs.items() if image.ref in refs)
    return images


def remove(image: CachedImage, client: docker.DockerClient | None) -> str | None:
    """Remove one unreferenced derived image, under its build lock (a night building the same key waits); why it
    stays, if it does."""
    with build_lock(image.key):
        if image.kind == "rootfs":
            shutil.rmtree(Path(image.ref).parent)
        elif client is not None:
            try:
                client.images.remove(image.ref, force=False)  # an image a container still uses stays
            except docker.errors.ImageNotFound:
                pass
            except docker.errors.APIError as exc:
                return str(exc.explanation or exc)
    return None
