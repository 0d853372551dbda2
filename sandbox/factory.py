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
