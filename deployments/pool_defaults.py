"""The docker work pool's names and host paths, importable without Prefect (the CLI's parser shows them)."""

from pathlib import Path

POOL = "nightshift-docker"
DEPLOYMENT = "nightly-shard/docker"
SANDBOX_ROOT = Path("/srv/nightshift/sandboxes")
HOST_FOLDERS = (Path("/run/nightshift"), Path("/tmp/nightshift-gpu"))  # host-wide leases and slot locks
