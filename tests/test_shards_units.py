"""Sharding without a server: idempotency keys, the prefect.yaml deployment, the job templates, the config."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
import yaml

from nightshift.experiment.config import ExperimentError, load_experiment
from nightshift.flows.shards import shard_key
from tests.conftest import REPO
from tests.host_support import need_root

TEMPLATES = REPO / "deployments" / "templates"


def test_shard_keys_are_stable_per_parent_and_attempt() -> None:
    assert shard_key("p1", "night-abc", 0, 4) == shard_key("p1", "night-abc", 0, 4) == "p1:night-abc:shard-1-of-4"
    assert shard_key("p1", "night-abc", 0, 4, attempt=1) == "p1:night-abc:shard-1-of-4:rerun-1"
    keys = {shard_key(p, "night-abc", k, 4, a) for p in ("p1", "p2") for k in range(4) for a in range(2)}
    assert len(keys) == 16  # another parent, shard or attempt never collides


def test_prefect_yaml_deploys_the_shard_flow() -> None:
    deployments = {d["name"]: d for d in yaml.safe_load((REPO / "prefect.yaml").read_text())["deployments"]}
    shard = deployments["shard"]
    assert shard["entrypoint"] == "nightshift.flows.shards.nightly_shard"
    assert "schedules" not in shard  # only the parent starts shards
    module, name = shard["entrypoint"].rsplit(".", 1)
    assert getattr(importlib.import_module(module), name).name == "nightly-shard"
    docker = deployments["docker"]  # the same flow on the docker pool, in the image's installed package
    assert docker["entrypoint"] == shard["entrypoint"] and docker["work_pool"]["name"] == "nightshift-docker"
    assert docker["pull"] == [{"prefect.deployments.steps.set_working_directory": {"directory": "/srv/nightshift"}}]
    project = yaml.safe_load((REPO / "nightshift" / "templates" / "project" / "prefect.yaml").read_text().replace(
        "@PROJECT@", "p"))
    assert {d["name"]: d for d in project["deployments"]}["docker"] == docker  # nightshift init writes the same


@pytest.mark.parametrize("kind", ["docker", "kubernetes"])
def test_job_templates_declare_every_variable_they_use(kind: str) -> None:
    template = json.loads((TEMPLATES / f"{kind}.json").read_text())
    used = set(re.findall(r"{{\s*(\w+)\s*}}", json.dumps(template["job_configuration"])))
    declared = set(template["variables"]["properties"])
    assert used <= declared, f"{kind}.json uses undeclared variables {used - declared}"
    assert template["variables"]["properties"]["image"]["default"] == "nightshift/worker:latest"
    assert "NIGHTSHIFT_API_KEY" not in json.dumps(template["variables"]["properties"]["env"]["default"])


def test_shards_and_gpu_settings_are_checked(tmp_path: Path) -> None:
    exp = tmp_path / "exp.yaml"
    exp.write_text("name: n\nvariants: [{name: a, model: sim-strong}]\nshards: {count: 4}\n"
                   "gpu: {cards: [GPU-a, GPU-b]}\nschedule: {history: none}\n")
    loaded = load_experiment(exp)
    assert loaded.shards.count == 4 and loaded.shards.deployment == "nightly-shard/shard"
    assert loaded.gpu.cards == ["GPU-a", "GPU-b"] and loaded.schedule.history == "none"
    exp.write_text("name: n\nvariants: [{name: a, model: sim-strong}]\nshards: {count: 0}\n")
    with pytest.raises(ExperimentError, match="shards.count"):
        load_experiment(exp)


def test_the_server_accepts_the_job_templates(prefect_server: str) -> None:
    """What the docs tell an operator to run; the server checks the template against its variables."""
    from nightshift.deployments.server import prefect_cli

    for kind in ("docker", "kubernetes"):
        created = prefect_cli("work-pool", "create", f"nightshift-{kind}-check", "--type", kind, "--overwrite",
                              "--base-job-template", str(TEMPLATES / f"{kind}.json"), url=prefect_server, check=False)
        assert created.returncode == 0, created.stdout + created.stderr


def test_the_shard_flow_does_not_import_the_parent_flow() -> None:
    # one module builds the trial context for both flows; a shard worker never loads nightly_eval
    import subprocess
    import sys

    code = ("import sys, nightshift.flows.shards; "
            "assert 'nightshift.flows.nightly_eval' not in sys.modules, 'shards imports nightly_eval'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


def test_the_docker_pool_template_is_what_the_docker_worker_accepts(tmp_path: Path) -> None:
    """Rendered as prefect-docker's worker renders it: the pinned id, the shared folders, the sandbox root rshared."""
    import asyncio

    from prefect_docker.worker import DockerWorkerJobConfiguration

    from nightshift.deployments.docker_pool import pool_template

    image, root = "sha256:" + "ab" * 32, tmp_path / "sandboxes"
    template = pool_template(image, [tmp_path / "project", tmp_path / "project"], root)
    config = asyncio.run(DockerWorkerJobConfiguration.from_template_and_values(template, {}))
    assert config.image == image and config.image_pull_policy == "Never"
    assert f"{tmp_path / 'project'}:{tmp_path / 'project'}" in config.volumes  # once, at the same path
    assert "/var/run/docker.sock:/var/run/docker.sock" in config.volumes
    assert config.network_mode == "host" and not config.privileged
    kwargs = config.container_create_kwargs
    assert kwargs["pid_mode"] == "host" and kwargs["cap_add"] == ["SYS_ADMIN"]
    assert kwargs["mounts"] == [{"Type": "bind", "Source": str(root), "Target": str(root),
                                 "BindOptions": {"Propagation": "rshared"}}]
    assert config.env["NIGHTSHIFT_SANDBOX_ROOT"] == str(root) and config.env["NIGHTSHIFT_WORKER_IMAGE"] == image


def test_prepare_host_makes_the_sandbox_root_a_shared_mount(tmp_path: Path) -> None:
    need_root("bind mounts")
    import subprocess

    from nightshift.deployments.docker_pool import prepare_host
    from nightshift.sandbox.propagation import is_shared_mount, propagates

    root = tmp_path / "sandboxes"
    root.mkdir()
    assert not is_shared_mount(root)
    try:
        assert "made" in prepare_host(root)[-1] and is_shared_mount(root) and propagates(root / "some-sandbox")
        assert prepare_host(root) == []  # already prepared: nothing to do
        subprocess.run(["mount", "--make-private", str(root)], check=True)
        assert not is_shared_mount(root) and not propagates(root)
    finally:
        subprocess.run(["umount", "-l", str(root)], capture_output=True)
