"""Pick the sandbox backend an experiment asks for."""

from __future__ import annotations

from nightshift.contracts import SandboxBackend


def backend_for(name: str, image: str) -> SandboxBackend:
    if name == "bubblewrap":
        from sandbox.bubblewrap import BubblewrapBackend

        return BubblewrapBackend(image)
    raise ValueError(f"sandbox.backend {name!r} is not available yet; use 'bubblewrap'")
