"""A docker image made by running commands in a container of a base image and committing it, once per content key.

Every image nightshift derives this way (a harness's install lines, the shard worker, a PyPI project's test
environment) is built here: as root WITH network (the only time an image may reach PyPI or a Debian mirror),
with the host's CA bundle bound in for TLS (never baked into the image), one build per key at a time on this
host, and reused while an image carrying that key label exists. A failing command raises CommandFailed with
its output; nothing is committed, so the next build tries again.
"""

from __future__ import annotations

import contextlib
import fcntl
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import docker
from docker.types import Mount

from nightshift.sandbox.docker_exec import run_captured
from nightshift.sandbox.images import image_cache

HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
BUILD_ENV = {"DEBIAN_FRONTEND": "noninteractive", "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1",
             "PIP_CERT": str(HOST_CA), "SSL_CERT_FILE": str(HOST_CA), "REQUESTS_CA_BUNDLE": str(HOST_CA),
             "HOME": "/root", "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}


class CommandFailed(RuntimeError):
    """Build command ``index`` (0-based) exited ``code``; ``output`` is its stdout and stderr."""

    def __init__(self, index: int, command: str, code: int, output: str):
        super().__init__(f"build command {index + 1} exited {code}: {command}")
        self.index, self.command, self.code, self.output = index, command, code, output


@contextlib.contextmanager
def build_lock(key: str) -> Iterator[None]:
    """One build per key at a time on this host (two runs, or two test sessions, may start together)."""
    folder = image_cache() / "derived"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / f".{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def commit_image(client, base_image_id: str, commands: list[str], *, key: str, repository: str, label: str,
                 changes: list[str], mounts: list | None = None, env: dict[str, str] | None = None
                 ) -> tuple[str, bool, float]:
    """``repository:key`` built from ``base_image_id`` by ``commands`` (run in order, root, ``BUILD_ENV`` with
    ``env`` over it), committed with ``changes``: (image id, whether it was built now, seconds)."""
    started = time.monotonic()
    tag = f"{repository}:{key}"
    with build_lock(key):
        with contextlib.suppress(docker.errors.ImageNotFound):
            found = client.images.get(tag)
            if found.labels.get(f"{label}.key") == key:
                return found.id, False, time.monotonic() - started
        binds = [Mount(str(HOST_CA), str(HOST_CA), type="bind", read_only=True)] if HOST_CA.is_file() else []
        container = client.containers.run(base_image_id, command=["sleep", "infinity"], init=True, user="0:0",
                                          detach=True, name=f"nsb-build-{key}-{uuid.uuid4().hex[:6]}",
                                          mounts=[*binds, *(mounts or [])], labels={f"{label}.build": key})
        try:
            for index, command in enumerate(commands):
                code, output = run_captured(client.api, container.id, ["sh", "-c", command], "0:0",
                                            {**BUILD_ENV, **(env or {})})
                if code != 0:
                    raise CommandFailed(index, command, code, output)
            image = container.commit(repository=repository, tag=key, changes=[
                *changes, f"LABEL {label}.key={key}", f"LABEL {label}.base={base_image_id}"])
        finally:
            with contextlib.suppress(docker.errors.NotFound):
                container.remove(force=True)
    return image.id, True, time.monotonic() - started
