"""Shards on a Prefect docker work pool: the pool, its worker image, and the host each docker worker runs on.

    nightshift docker-pool [--share DIR ...]    # once, where the Prefect API is reachable: build the worker
                                                # image, create the pool with it pinned by id, deploy the shard
    nightshift docker-worker [--limit 1]        # on every worker machine: prepare the host, start the worker

The pool's job template (deployments/templates/docker.json) runs each shard flow run in a container of
the worker image with host networking (the Prefect API, the model endpoint and the quota store are where
the host has them) and the host paths below at the same path, so the docker sandbox backend inside it
starts every trial's sandbox as a sibling container exactly as it does on the host:

* the shared folders (``--share``: the project folder with its experiments, suites and runs/);
* the sandbox root, with rshared propagation (a mount in container_create_kwargs): a sandbox's quota
  disk is loop-mounted by the shard and must be seen by the engine, which bind-mounts its workspace;
  the host side must be a shared mount (``prepare_host`` makes it one);
* the docker socket, /dev (loop devices), the host's cgroup tree, the host-wide uid leases and
  timing-slot locks (sandbox/uids.py, gpu/pool.py), so that shards on one host never share a uid or a slot.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from prefect.client.orchestration import get_client
from prefect.client.schemas.actions import WorkPoolCreate, WorkPoolUpdate
from prefect.exceptions import ObjectAlreadyExists
from prefect.settings import PREFECT_API_URL, temporary_settings

from nightshift.deployments.auth import CLIENT_ENV, ServerAuthError, credential_file, read_credential
from nightshift.deployments.pool_defaults import DEPLOYMENT, HOST_FOLDERS, SANDBOX_ROOT
from nightshift.deployments.server import ensure_server, prefect_cli, present_own_credential
from nightshift.deployments.worker_image import WorkerImageError, build_worker_image
from nightshift.errors import OrchestrationError
from nightshift.harnesses.derived_image import InstallError
from nightshift.resources import package_path, project_dir
from nightshift.resources import state_dir as project_state_dir
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.images import latest_build
from nightshift.sandbox.propagation import is_shared_mount


class DockerPoolError(OrchestrationError):
    """The pool or a worker host cannot be set up; the message names the fix."""


def template_path() -> Path:
    return Path(package_path("nightshift.deployments", "templates")) / "docker.json"


def pool_template(image_id: str, shared: list[Path], sandbox_root: Path = SANDBOX_ROOT) -> dict:
    """The docker.json template with the worker image pinned by id, these folders shared at the same path."""
    template = json.loads(template_path().read_text())
    props = template["variables"]["properties"]
    props["image"]["default"] = image_id
    props["image_pull_policy"]["default"] = "Never"  # a local id: there is nothing to pull it from
    props["env"]["default"] = {**props["env"]["default"], "NIGHTSHIFT_SANDBOX_ROOT": str(sandbox_root),
                               "NIGHTSHIFT_WORKER_IMAGE": image_id}
    volumes = [v for v in props["volumes"]["default"] if not v.startswith("/srv/nightshift/runs:")]
    props["volumes"]["default"] = volumes + [f"{p}:{p}" for p in sorted({Path(p).resolve() for p in shared})]
    kwargs = props["container_create_kwargs"]["default"]
    kwargs["mounts"] = [{"Type": "bind", "Source": str(sandbox_root), "Target": str(sandbox_root),
                         "BindOptions": {"Propagation": "rshared"}}]  # volumes accept only ro/rw
    return template


def create_pool(url: str, name: str, template: dict) -> None:
    """Create the work pool, or replace its job template (the image id changes with the checkout)."""

    with temporary_settings(updates={PREFECT_API_URL: url}), get_client(sync_client=True) as client:
        try:
            client.create_work_pool(WorkPoolCreate(name=name, type="docker", base_job_template=template))
        except ObjectAlreadyExists:
            client.update_work_pool(name, WorkPoolUpdate(base_job_template=template))


def prepare_host(sandbox_root: Path = SANDBOX_ROOT) -> list[str]:
    """Make this host ready for shard containers: the folders they share exist, the sandbox root is a shared
    mount (a bind mount of itself, made shared) so their quota disks reach the engine. Returns what it did."""
    done = []
    for folder in (sandbox_root, *HOST_FOLDERS):
        if not folder.is_dir():
            folder.mkdir(parents=True)
            done.append(f"created {folder}")
    if not is_shared_mount(sandbox_root):
        if os.geteuid() != 0:
            raise DockerPoolError(f"{sandbox_root} must be a shared mount for shard containers (their sandboxes' "
                                  f"quota disks are mounted there): run nightshift docker-worker as root, or "
                                  f"mount --bind {sandbox_root} {sandbox_root} && mount --make-shared {sandbox_root}")
        for args in (["mount", "--bind", str(sandbox_root), str(sandbox_root)],
                     ["mount", "--make-shared", str(sandbox_root)]):
            subprocess.run(args, check=True, capture_output=True)
        done.append(f"made {sandbox_root} a shared bind mount")
    return done


def _base_image_id() -> str:
    build = latest_build()
    if build is None or not build.image_id:
        raise DockerPoolError("no sandbox base image here: run nightshift build-image first (the worker image is "
                              "built on it)")
    return build.image_id


def _deploy_shard(url: str, project: Path) -> None:
    """Apply the prefect.yaml deployment of the docker shard (nightly-shard/docker) from ``project``."""

    if not (project / "prefect.yaml").is_file():
        raise DockerPoolError(f"no prefect.yaml in {project}: run from the project folder (nightshift init writes one)")
    done = prefect_cli("--no-prompt", "deploy", "--name", "docker", url=url, check=False)
    if done.returncode != 0:
        raise DockerPoolError(f"prefect deploy --name docker in {project} failed (its prefect.yaml needs the "
                              f"'docker' deployment of nightshift.flows.shards.nightly_shard):\n"
                              f"{done.stdout[-1500:]}{done.stderr[-1500:]}")


def pool_command(args: argparse.Namespace) -> int:
    try:
        return _make_pool(args)
    except (DockerPoolError, WorkerImageError, InstallError, RuntimeError) as exc:
        print(f"nightshift docker-pool: {exc}", file=sys.stderr)
        return 2


def _make_pool(args: argparse.Namespace) -> int:
    if args.wheel is not None and not args.wheel.is_file():
        raise DockerPoolError(f"--wheel {args.wheel}: no such file (the nightshift wheel installed here)")
    if url := os.environ.get("PREFECT_API_URL"):
        present_own_credential(url)  # the project's own server named by hand: its credential; never another's
    else:
        url = ensure_server(port=args.port)
    client = docker_engine("nightshift docker-pool builds the worker image", "start dockerd")
    print("worker image: building or reusing it ...", file=sys.stderr, flush=True)
    image = build_worker_image(client, _base_image_id(), args.wheel)
    client.images.get(image.image_id).tag("nightshift/worker", "latest")
    project = project_dir()  # where prefect_cli runs prefect deploy: this folder, or $NIGHTSHIFT_HOME
    shared = args.share or [project]
    create_pool(url, args.name, pool_template(image.image_id, shared, args.sandbox_root))
    if not args.no_deploy:
        _deploy_shard(url, project)
    how = "built" if image.built else "reused"
    print(f"worker image {image.image_id} ({how}, key {image.key}, code {image.code_version})\n"
          f"work pool {args.name}: shards share {', '.join(str(p) for p in shared)} and {args.sandbox_root}\n"
          f"next, on each worker machine (same image: docker save | docker load): nightshift docker-worker --pool "
          f"{args.name}\nand in the experiment: shards: {{count: N, deployment: {DEPLOYMENT}}}, "
          f"sandbox.backend: docker")
    return 0


def hand_credential() -> str:
    """Give the worker (and so, through its settings, every shard container it starts) the server's credential:
    $PREFECT_API_AUTH_STRING as set, else this project's own server's file. It is never put in the pool's job
    template: that is stored on the server and shown in the UI. Returns where it came from."""
    if os.environ.get(CLIENT_ENV):
        return f"credential: ${CLIENT_ENV}"
    path = credential_file(project_state_dir())
    if (secret := read_credential(path)) is None:
        return (f"credential: none (no ${CLIENT_ENV}, no {path}): a nightshift server refuses this worker; "
                "docs/SCALING.md says how to give it the credential")
    os.environ[CLIENT_ENV] = secret  # os.execv below passes the environment on
    return f"credential: {path}"


def worker_command(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("prefect_docker") is None:  # else prefect would pip-install it at start
        print("nightshift docker-worker: the docker worker is not installed here: pip install "
              "'nightshift[docker-pool]' (prefect-docker, pinned)", file=sys.stderr)
        return 2
    try:
        done = prepare_host(args.sandbox_root)
    except (DockerPoolError, OSError, subprocess.CalledProcessError) as exc:
        print(f"nightshift docker-worker: {exc}", file=sys.stderr)
        return 2
    for line in done:
        print(line, file=sys.stderr)
    try:
        print(hand_credential(), file=sys.stderr)
    except ServerAuthError as exc:
        print(f"nightshift docker-worker: {exc}", file=sys.stderr)
        return 2
    command = [sys.executable, "-m", "prefect", "worker", "start", "--pool", args.pool, "--type", "docker",
               "--limit", str(args.limit), *(["--name", args.name] if args.name else [])]
    print("starting: " + " ".join(command[1:]), file=sys.stderr, flush=True)
    os.execv(sys.executable, command)  # the worker itself, in the foreground (a service manager keeps it running)
