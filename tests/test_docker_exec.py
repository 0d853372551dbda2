"""Reading a docker exec's output whole (sandbox/docker_exec.py), whatever the client's read timeout."""

from __future__ import annotations

import contextlib

import docker
import pytest

from nightshift.sandbox.docker_exec import run_captured
from tests.sandbox_support import backend_image


@pytest.fixture
def quick_client_container():
    """A container of the sandbox image, reached through a client whose read timeout is 1 s."""
    image = backend_image("docker")
    client = docker.DockerClient(base_url="unix:///var/run/docker.sock", timeout=1)
    container = client.containers.run(image, command=["sleep", "infinity"], detach=True, network_mode="none",
                                      labels={"org.nightshift.test": "docker-exec"})
    try:
        yield client, container
    finally:
        with contextlib.suppress(docker.errors.NotFound):
            container.remove(force=True)
        client.close()


def test_a_command_silent_longer_than_the_client_timeout_keeps_its_output_and_exit_code(quick_client_container):
    """A quiet pip install is silent for minutes: the stream must not end at the client's read timeout (the
    output after it was lost, and the exit code read as None)."""
    client, container = quick_client_container
    code, output = run_captured(client.api, container.id, ["sh", "-c", "echo first; sleep 3; echo last; exit 4"],
                                "0:0", {})
    assert (code, output) == (4, "first\nlast\n")
