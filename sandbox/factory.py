"""Pick the sandbox backend an experiment asks for (sandbox.backend and sandbox.image)."""

from __future__ import annotations

from nightshift.contracts import SandboxBackend


def backend_for(name: str, image: str) -> SandboxBackend:
    """The backend registered as `name` (nightshift.sandboxes: bubblewrap, docker, or a plugin's)."""
    from nightshift.plugins import SANDBOXES
    from nightshift.registry import PluginError

    try:
        backend_class = SANDBOXES.resolve(name).target
    except PluginError as exc:
        raise ValueError(f"sandbox backend {name!r} is not known ({exc})") from None
    return backend_class(image)


def reap_leftovers() -> dict[str, int]:
    """Remove what dead runs left, on every backend this host has (run at worker start; flows reap at start)."""
    from nightshift.sandbox.bubblewrap import BubblewrapBackend

    removed = {"bubblewrap": BubblewrapBackend("host").reap()}
    try:
        from nightshift.sandbox.docker_backend import DockerBackend

        removed["docker"] = DockerBackend(None).reap()
    except RuntimeError:  # no docker engine on this host: nothing of ours can be there
        pass
    return removed
