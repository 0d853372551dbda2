"""Pick the sandbox backend an experiment asks for (sandbox.backend and sandbox.image)."""

from __future__ import annotations

import contextlib

from nightshift.contracts import SandboxBackend
from nightshift.errors import NightshiftError, SandboxError
from nightshift.plugins import SANDBOXES
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.sandbox.docker_backend import DockerBackend


def backend_for(name: str, image: str) -> SandboxBackend:
    """The backend registered as `name` (nightshift.sandboxes: bubblewrap, docker, or a plugin's)."""
    backend_class = SANDBOXES.resolve(name).target  # PluginError (a configuration error) names the installed ones
    try:
        return backend_class(image)
    except NightshiftError:
        raise  # the backend said whose problem it is (a bad image name: configuration; no engine: sandbox)
    except Exception as exc:  # noqa: BLE001 - a plugin backend may fail any way; the night must say so in one line
        raise SandboxError(f"sandbox backend {name!r} could not start on image {image!r}: {type(exc).__name__}: "
                           f"{exc}; check that the host can run it (nightshift plugins shows where it comes from)"
                           ) from exc


def reap_leftovers() -> dict[str, int]:
    """Remove what dead runs left, on every backend this host has (run at worker start; flows reap at start)."""
    removed = {"bubblewrap": BubblewrapBackend("host").reap()}
    with contextlib.suppress(RuntimeError):  # no docker engine on this host: nothing of ours can be there
        removed["docker"] = DockerBackend(None).reap()
    return removed
