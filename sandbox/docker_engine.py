"""The one way nightshift connects to the local docker engine: a client, pinged, or one clear error.

Every caller (the docker backend, bubblewrap's rootfs export of a case image, Harbor's image builds)
says in its own words why it needs docker and what to do; the engine's own reason is kept in the text.
"""

from __future__ import annotations

import docker


def docker_engine(why: str, fix: str, *, timeout_s: int = 600, pool: int = 10, error: type[Exception] = RuntimeError):
    """A pinged docker client; ``error(f"{why}: no docker engine reachable (...). Fix: {fix}")`` otherwise."""

    try:
        client = docker.from_env(timeout=timeout_s, max_pool_size=pool)
        client.ping()
    except docker.errors.DockerException as exc:
        raise error(f"{why}: no docker engine reachable ({exc}). Fix: {fix}") from exc
    return client
