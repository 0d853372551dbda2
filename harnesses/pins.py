"""Pin every variant's harness for the manifest, and give command harnesses their derived sandbox image.

Called by the flow before the manifest is written: a harness's identity (kind, entrypoint, settings,
version or content hash; install, run, derived image) is part of every one of its trial ids.

A case that runs its own image (a Harbor task's) gets the harness's install on top of THAT image, not of
the run's: `install` is built once per (case image, install) and the trial runs the result.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from nightshift.contracts import SandboxBackend
from nightshift.experiment.config import Experiment, HarnessSpec
from nightshift.harnesses.derived_image import DerivedImage, bubblewrap_derived, docker_derived
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import Case
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.factory import backend_for

if TYPE_CHECKING:  # the two built-in backends, told apart by name (a runtime import would load docker's client)
    from nightshift.sandbox.bubblewrap import BubblewrapBackend
    from nightshift.sandbox.docker_backend import DockerBackend

log = logging.getLogger("nightshift.harnesses")


def derive(backend: SandboxBackend, spec: HarnessSpec) -> tuple[SandboxBackend, DerivedImage]:
    """A backend of the same kind over the derived image of `spec.install` (built or reused)."""

    if backend.name == "docker":
        docker = cast("DockerBackend", backend)
        assert docker.image_id is not None, "the run's backend has an image"
        made = docker_derived(docker.client, docker.image_id, spec.install)
    elif backend.name == "bubblewrap":
        rootfs = cast("BubblewrapBackend", backend).rootfs
        if Path(rootfs) == Path("/"):
            raise ValueError("a command harness with install needs a built root filesystem, not sandbox.image "
                             "'host' (the host's /usr is never written): build one with "
                             "nightshift build-image --rootfs-only and set sandbox.image to its path")
        made = bubblewrap_derived(Path(rootfs), backend.identity(), spec.install)
    else:
        raise ValueError(f"sandbox backend {backend.name!r} cannot derive images for harness.install; "
                         f"use 'docker' or 'bubblewrap'")
    log.warning("harness image %s: %s in %.1fs", made.key, "built" if made.built else "reused", made.seconds)
    return backend_for(backend.name, made.image), made


def derive_case_image(image: str, install: list[str]) -> DerivedImage:
    """`install` on a case's own image: a docker image id (committed on top, run by either backend; bubblewrap
    exports it like any case image) or a root filesystem folder (a cached bubblewrap rootfs)."""
    if Path(image).is_dir():
        made = bubblewrap_derived(Path(image), f"rootfs:{Path(image).resolve()}", install)
    else:
        client = docker_engine(f"a command harness's install on case image {image}",
                               "start dockerd (case images are docker images)")
        made = docker_derived(client, image, install)
    log.warning("harness image %s on case image %s: %s in %.1fs", made.key, image[:19],
                "built" if made.built else "reused", made.seconds)
    return made


@dataclass
class HarnessPins:
    resolved: dict[str, ResolvedHarness] = field(default_factory=dict)  # variant -> its harness, resolved once
    identities: dict[str, dict] = field(default_factory=dict)  # variant -> identity (manifest, trial ids)
    backends: dict[str, SandboxBackend] = field(default_factory=dict)  # variant -> backend over its derived image
    case_images: dict[str, dict[str, str]] = field(default_factory=dict)  # variant -> case image -> derived image


def pin_harnesses(exp: Experiment, resolved: dict[str, ResolvedHarness], backend: SandboxBackend,
                  cases: Sequence[Case] = ()) -> HarnessPins:
    """Identity of every variant's harness (``resolved``: each variant's, from nightshift.preflight); derived images
    built (or reused) for each command harness that installs something: on the run's image, and on every case
    image among `cases`."""
    pins = HarnessPins(resolved=dict(resolved))
    derived: dict[tuple[str, ...], tuple[SandboxBackend, DerivedImage]] = {}
    on_case: dict[tuple[tuple[str, ...], str], DerivedImage] = {}
    case_images = sorted({c.image for c in cases if c.image})
    for variant in exp.variants:
        identity = dict(resolved[variant.name].identity)
        harness = resolved[variant.name].spec  # an installed agent's is the command harness it resolved to
        if harness.kind == "command" and harness.install:
            install = tuple(harness.install)
            if install not in derived:  # variants with the same install share one image
                derived[install] = derive(backend, harness)
            pins.backends[variant.name], made = derived[install]
            identity["image_key"] = made.key
            identity["image"] = pins.backends[variant.name].identity()
            for image in case_images:
                if (install, image) not in on_case:
                    on_case[install, image] = derive_case_image(image, list(install))
            pins.case_images[variant.name] = {image: on_case[install, image].image for image in case_images}
            if case_images:
                identity["case_images"] = pins.case_images[variant.name]
        pins.identities[variant.name] = identity
    return pins
