"""Where locally built sandbox base images live, and how to find the latest one.

nightshift build-image (sandbox/base_image.py) writes one folder per content key under the image cache
(``rootfs/`` for bubblewrap, ``rootfs.tar`` for ``docker import``, ``build.json``) and points
``latest.json`` at the newest. This module only reads those records; it builds nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from pydantic import BaseModel

from nightshift.resources import state_dir


class BuiltImage(BaseModel):
    """One local build of the base image: the same root filesystem for both backends."""

    key: str
    recipe: dict
    rootfs: Path
    tarball: Path
    tar_sha256: str
    image_id: str | None = None
    built_at: str = ""


def image_cache() -> Path:
    """$NIGHTSHIFT_IMAGE_CACHE, else /var/cache/nightshift/images if writable, else the project's .nightshift/images."""
    if env := os.environ.get("NIGHTSHIFT_IMAGE_CACHE"):
        return Path(env)
    system = Path("/var/cache/nightshift/images")
    if os.access(system if system.exists() else system.parent.parent, os.W_OK):
        return system
    return state_dir() / "images"


def latest_build(cache: Path | None = None) -> BuiltImage | None:
    """The newest complete build, or None when nightshift build-image has not run here."""
    record = (cache or image_cache()) / "latest.json"
    if not record.is_file():
        return None
    build = BuiltImage.model_validate(json.loads(record.read_text()))
    return build if (build.rootfs / "usr").is_dir() else None
