"""Pin every variant's harness for the manifest, and give command harnesses their derived sandbox image.

Called by the flow before the manifest is written: a harness's identity (kind, entrypoint, settings,
version or content hash; install, run, derived image) is part of every one of its trial ids.

A case that runs its own image (a Harbor task's) gets the harness's install on top of THAT image, not of
the run's: `install` is built once per (case image, install) and the trial runs the result.

Each derived image is then scanned once for the Python packages its install lets a trial read
(harnesses/install_copies.py); a case whose own package is among them gets its copies in ``agent_copies``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from nightshift.contracts import SandboxBackend
from nightshift.errors import HarnessError
from nightshift.experiment.config import Experiment, HarnessSpec
from nightshift.harnesses import install_copies
from nightshift.harnesses.derived_image import DerivedImage, bubblewrap_derived, docker_derived
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import Case
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.factory import backend_for

if TYPE_CHECKING:  # the two built-in backends, told apart by name (a runtime import would load docker's client)
    from nightshift.sandbox.bubblewrap import BubblewrapBackend
    from nightshift.sandbox.docker_backend import DockerBackend

log = logging.getLogger("nightshift.harnesses")
NO_HOST_INSTALL = ("needs a built root filesystem, not sandbox.image 'host' (the host's /usr is never written): build "
                   "one with `nightshift build-image --rootfs-only` and set sandbox.image to its path")


def derive(backend: SandboxBackend, spec: HarnessSpec) -> tuple[SandboxBackend, DerivedImage]:
    """A backend of the same kind over the derived image of `spec.install` (built or reused)."""

    if backend.name == "docker":
        docker = cast("DockerBackend", backend)
        assert docker.image_id is not None, "the run's backend has an image"
        made = docker_derived(docker.client, docker.image_id, spec.install)
    elif backend.name == "bubblewrap":
        rootfs = cast("BubblewrapBackend", backend).rootfs
        if Path(rootfs) == Path("/"):
            raise HarnessError("install", f"an installed harness on a case without its own image {NO_HOST_INSTALL}")
        made = bubblewrap_derived(Path(rootfs), backend.identity(), spec.install)
    else:
        raise ValueError(f"sandbox backend {backend.name!r} cannot derive images for harness.install; "
                         f"use 'docker' or 'bubblewrap'")
    log.warning("harness image %s: %s in %.1fs", made.key, "built" if made.built else "reused", made.seconds)
    return backend_for(backend.name, made.image), made


def install_problems(exp: Experiment, resolved: dict[str, ResolvedHarness], cases: Sequence[Case]) -> list[str]:
    """What ``pin_harnesses`` would refuse, said before anything is built (``nightshift check``): an install on
    the host's own root filesystem, which a case without an image of its own would need."""
    imageless = [c.id for c in cases if not c.image]
    if exp.sandbox.backend != "bubblewrap" or exp.sandbox.image != "host" or not imageless:
        return []
    return [f"field 'sandbox.image': variant {name!r} installs its harness, and {len(imageless)} cases "
            f"({', '.join(imageless[:3])}{', ...' if len(imageless) > 3 else ''}) have no image of their own: it "
            f"{NO_HOST_INSTALL}"
            for name, harness in resolved.items() if harness.spec.kind == "command" and harness.spec.install]


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
    agent_copies: dict[str, dict[str, list[dict]]] = field(default_factory=dict)
    """Variant -> case id -> the copies of that case's package its install lets a trial read (install_copies)."""
    agents: dict[str, str] = field(default_factory=dict)  # variant -> its agent's name, for the warnings

    def warnings(self) -> list[str]:
        """One line per agent whose install holds a copy of a case's package (shown before any trial)."""
        return install_copies.warning_lines(self.agent_copies, self.agents)


def pin_harnesses(exp: Experiment, resolved: dict[str, ResolvedHarness], backend: SandboxBackend,
                  cases: Sequence[Case] = ()) -> HarnessPins:
    """Identity of every variant's harness (``resolved``: each variant's, from nightshift.preflight); derived images
    built (or reused) for each command harness that installs something: on the run's image, and on every case
    image among `cases`."""
    pins = HarnessPins(resolved=dict(resolved))
    derived: dict[tuple[str, ...], tuple[SandboxBackend, DerivedImage]] = {}
    on_case: dict[tuple[tuple[str, ...], str], DerivedImage] = {}
    names: dict[str, dict[str, list[str]]] = {}  # derived key -> what its install lets a trial read
    case_images = sorted({c.image for c in cases if c.image})
    repository_cases = [c for c in cases if install_copies.case_import_names(c)]
    for variant in exp.variants:
        identity = dict(resolved[variant.name].identity)
        harness = resolved[variant.name].spec  # an installed agent's is the command harness it resolved to
        if harness.kind == "command" and harness.install:
            install = tuple(harness.install)
            image_of: dict[str, str] = {}
            if not cases or any(not c.image for c in cases):  # only cases without an image of their own run on it
                if install not in derived:  # variants with the same install share one image
                    derived[install] = derive(backend, harness)
                pins.backends[variant.name], made = derived[install]
                if any(not c.image for c in repository_cases):
                    _scan_install(names, made, _base_image(backend))
                    image_of = {c.id: made.key for c in repository_cases if not c.image}
                identity["image_key"] = made.key
                identity["image"] = pins.backends[variant.name].identity()
            else:  # every case brings its image: the install is derived on each of those below
                pins.backends[variant.name] = backend
                identity["image_key"] = "per-case-image"
            for image in case_images:
                if (install, image) not in on_case:
                    on_case[install, image] = derive_case_image(image, list(install))
            pins.case_images[variant.name] = {image: on_case[install, image].image for image in case_images}
            if case_images:
                identity["case_images"] = pins.case_images[variant.name]
            for case in repository_cases:
                if case.image:
                    _scan_install(names, on_case[install, case.image], case.image)
                    image_of[case.id] = on_case[install, case.image].key
            found = install_copies.matched(names, repository_cases, image_of)
            if found:
                pins.agent_copies[variant.name] = found
            pins.agents[variant.name] = agent_name(identity, variant.name)
        pins.identities[variant.name] = identity
    return pins


def agent_name(identity: dict, variant: str) -> str:
    """What a warning calls a variant's harness: the catalogue agent's name, else the variant's."""
    return str(identity["name"]) if identity.get("kind") == "installed" and identity.get("name") else variant


def _base_image(backend: SandboxBackend) -> str:
    """The image a derived image of ``backend`` is made from: the docker image id, or the bubblewrap rootfs."""
    if backend.name == "docker":
        return str(cast("DockerBackend", backend).image_id)
    return str(cast("BubblewrapBackend", backend).rootfs)


def _scan_install(names: dict[str, dict[str, list[str]]], made: DerivedImage, base: str) -> None:
    """What ``made``'s install lets a trial read, once per derived image; a scan that cannot run is warned about
    (the night goes on: the copies of that image are then unknown, not absent)."""
    if made.key in names:
        return
    try:
        names[made.key] = install_copies.install_names(made, base)
    except install_copies.ScanError as exc:
        log.warning("harness image %s: %s", made.key, exc)
        names[made.key] = {}


def recorded_warnings(exp: Experiment, resolved: dict[str, ResolvedHarness], cases: Sequence[Case]) -> list[str]:
    """What ``pin_harnesses`` will warn about, from the scans of derived images already made here (nothing is built
    or run: ``nightshift check``); a line per agent whose install on some case image is not scanned yet."""
    repository_cases = [c for c in cases if c.image and install_copies.case_import_names(c)]
    copies: dict[str, dict[str, list[dict]]] = {}
    agents: dict[str, str] = {}
    pending: dict[str, set[str]] = {}
    for variant in exp.variants:
        harness = resolved[variant.name].spec
        if harness.kind != "command" or not harness.install:
            continue
        agents[variant.name] = agent = agent_name(resolved[variant.name].identity, variant.name)
        names, image_of = {}, {}
        for case in repository_cases:
            key = install_copies.case_image_key(str(case.image), harness.install)
            record = install_copies.read_record(key)
            if record is None:
                pending.setdefault(agent, set()).add(str(case.image))
                continue
            names[key], image_of[case.id] = record["names"], key
        found = install_copies.matched(names, repository_cases, image_of)
        if found:
            copies[variant.name] = found
    return install_copies.warning_lines(copies, agents) + [install_copies.pending_line(agent, len(images))
                                                           for agent, images in sorted(pending.items())]
