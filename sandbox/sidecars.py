"""Service containers beside one docker sandbox (a Harbor task's compose services), on a private network.

The network is created per sandbox with ``internal=True``: the sandbox and its sidecars reach each
other by service name and nothing else (no route out, no other sandbox). Sidecars get no host mounts,
all capabilities but what a service needs to drop to its own user, no-new-privileges, and memory and
pid limits. Everything carries the sandbox's org.nightshift.* labels, so ``destroy`` and the reaper
remove sidecars and networks exactly like the sandbox container itself.
"""

from __future__ import annotations

import contextlib

import docker

from nightshift.models import Sidecar

SIDECAR_MEMORY_MB = 512
SIDECAR_PIDS = 256
# enough for an entrypoint to chown its data folder and drop from root to the service's own user
_SERVICE_CAPS = ["CHOWN", "SETUID", "SETGID", "DAC_OVERRIDE", "FOWNER"]


def network_name(sandbox_id: str) -> str:
    return f"{sandbox_id}-net"


def start_sidecars(client, sandbox_id: str, sidecars: list[Sidecar], labels: dict[str, str]) -> str:
    """Create the private network and start every sidecar on it; returns the network's name."""

    name = network_name(sandbox_id)
    client.networks.create(name, driver="bridge", internal=True, labels=labels)
    for service in sidecars:
        endpoint = client.api.create_endpoint_config(aliases=[service.name])
        try:
            container = client.containers.create(
                service.image, command=service.command, name=f"{sandbox_id}-{service.name}", hostname=service.name,
                environment=service.env, detach=True, network=name,
                labels={**labels, "org.nightshift.sidecar": service.name}, cap_drop=["ALL"], cap_add=_SERVICE_CAPS,
                security_opt=["no-new-privileges"], mem_limit=SIDECAR_MEMORY_MB << 20,
                memswap_limit=SIDECAR_MEMORY_MB << 20, pids_limit=SIDECAR_PIDS, networking_config={name: endpoint})
            container.start()
        except docker.errors.APIError as exc:
            raise RuntimeError(f"sidecar {service.name} ({service.image}) did not start: {exc.explanation}") from exc
    return name


def remove_sidecars(client, sandbox_id: str) -> None:
    """Remove the sidecars and the network of one sandbox (nothing else: matched by its own label)."""

    # the plain list (containers.list() inspects each one and raises NotFound for one the reaper removed meanwhile)
    for container in client.api.containers(all=True, filters={"label": f"org.nightshift.sandbox={sandbox_id}"}):
        if "org.nightshift.sidecar" in (container.get("Labels") or {}):
            with contextlib.suppress(docker.errors.NotFound):
                client.api.remove_container(container["Id"], force=True, v=True)
    for network in client.networks.list(names=[network_name(sandbox_id)]):
        if network.attrs.get("Labels", {}).get("org.nightshift.sandbox") == sandbox_id:
            with contextlib.suppress(docker.errors.NotFound):
                network.remove()
