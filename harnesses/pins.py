"""Pin every variant's harness for the manifest, and give command harnesses their derived sandbox image.

Called by the flow before the manifest is written: a harness's identity (kind, entrypoint, settings,
version or content hash; install, run, derived image) is part of every one of its trial ids.
"""

from __future__ import annotations

import logging
from pathlib import Path

from nightshift.contracts import SandboxBackend
from nightshift.experiment.config import Experiment, HarnessSpec
from nightshift.harnesses.derived_image import DerivedImage, bubblewrap_derived, docker_derived
from nightshift.harnesses.resolve import resolve_harness

log = logging.getLogger("nightshift.harnesses")


def derive(backend: SandboxBackend, spec: HarnessSpec) -> tuple[SandboxBackend, DerivedImage]:
    """A backend of the same kind over the derived image of `spec.install` (built or reused)."""
    from nightshift.sandbox.factory import backend_for

    if backend.name == "docker":
        made = docker_derived(backend.client, backend.image_id, spec.install)
    elif backend.name == "bubblewrap":
        if Path(backend.rootfs) == Path("/"):
            raise ValueError("a command harness with install needs a built root filesystem, not sandbox.image "
                             "'host' (the host's /usr is never written): build one with "
                             "scripts/build_sandbox_image.py --rootfs-only and set sandbox.image to its path")
        made = bubblewrap_derived(Path(backend.rootfs), backend.identity(), spec.install)
    else:
        raise ValueError(f"sandbox backend {backend.name!r} cannot derive images for harness.install; "
                         f"use 'docker' or 'bubblewrap'")
    log.warning("harness image %s: %s in %.1fs", made.key, "built" if made.built else "reused", made.seconds)
    return backend_for(backend.name, made.image), made


def pin_harnesses(exp: Experiment, backend: SandboxBackend) -> tuple[dict[str, dict], dict[str, SandboxBackend]]:
    """(identity by variant name, the derived backend of each command variant that installs something)."""
    identities: dict[str, dict] = {}
    backends: dict[str, SandboxBackend] = {}
    derived: dict[tuple[str, ...], tuple[SandboxBackend, DerivedImage]] = {}
    for variant in exp.variants:
        identity = dict(resolve_harness(variant.harness).identity)
        if variant.harness.kind == "command" and variant.harness.install:
            install = tuple(variant.harness.install)
            if install not in derived:  # variants with the same install share one image
                derived[install] = derive(backend, variant.harness)
            backends[variant.name], made = derived[install]
            identity["image_key"] = made.key
            identity["image"] = backends[variant.name].identity()
        identities[variant.name] = identity
    return identities, backends
