"""Pick the sandbox backend an experiment asks for (sandbox.backend and sandbox.image)."""

from __future__ import annotations

import contextlib

from nightshift.contracts import SandboxBackend
from nightshift.plugins import SANDBOXES
from nightshift.registry import PluginError
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.sandbox.docker_backend import DockerBackend


def backend_for(name: str, image: str) -> SandboxBackend:
    """The backend registered as `name` (nightshift.sandboxes: bubblewrap, docker, or a plugin's)."""
    try:
        backend_class = SANDBOXES.resolve(name).target
    except PluginError as exc:
        raise ValueError(f"sandbox backend {name!r} is not known ({exc})") from None
    return backend_class(image)


def reap_leftovers() -> dict[str, int]:
    """Remove what dead runs left, on every backend this host has (run at worker start; flows reap at start)."""
    removed = {"bubblewrap": BubblewrapBackend("host").reap()}
    with contextlib.suppress(RuntimeError):  # no docker engine on this host: nothing of ours can be there
        removed["docker"] = DockerBackend(None).reap()
    return removed
