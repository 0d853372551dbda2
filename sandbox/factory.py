"""Pick the sandbox backend an experiment asks for (sandbox.backend and sandbox.image)."""

from __future__ import annotations

from nightshift.contracts import SandboxBackend


def backend_for(name: str, image: str) -> SandboxBackend:
    if name == "bubblewrap":
        from sandbox.bubblewrap import BubblewrapBackend

        return BubblewrapBackend(image)
    if name == "docker":
        from sandbox.docker_backend import DockerBackend

        return DockerBackend(image)
    raise ValueError(f"sandbox.backend {name!r} is not known; use 'bubblewrap' or 'docker'")


def reap_leftovers() -> dict[str, int]:
    """Remove what dead runs left, on every backend this host has (run at worker start; flows reap at start)."""
    from sandbox.bubblewrap import BubblewrapBackend

    removed = {"bubblewrap": BubblewrapBackend("host").reap()}
    try:
        from sandbox.docker_backend import DockerBackend

        removed["docker"] = DockerBackend(None).reap()
    except RuntimeError:  # no docker engine on this host: nothing of ours can be there
        pass
    return removed
