"""A sharded night on a Prefect docker work pool, as an operator runs it: `nightshift docker-pool` builds the
worker image from this checkout (pinned by id) and creates the pool; two `nightshift docker-worker`s run the
shard flow runs in containers of that image. The containers reach the same Prefect server, write into the same
run folder and trial cache, draw from the same Redis quota store, read the key from a Prefect Secret block
(never a parameter), and start every trial's sandbox as a sibling container through the docker backend."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from prefect.blocks.system import Secret
from prefect.client.orchestration import get_client
from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName

from nightshift.deployments.docker_pool import pool_template
from nightshift.deployments.pool_defaults import POOL
from nightshift.deployments.server import QUIET_ENV
from nightshift.flows.nightly_eval import nightly_eval
from nightshift.sandbox.propagation import is_shared_mount
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.request_log import read_log
from tests.conftest import BUILTIN, REPO, free_port
from tests.process_support import start_group, stop_group, wait_for_workers
from tests.redis_support import RedisServer
from tests.sandbox_support import backend_image, leftovers, make_backend
from tests.test_bench_smoke import run_bench

RPM = 600
CASES = sorted(p.name for p in BUILTIN.iterdir() if (p / "case.toml").is_file())[:6]
SECRET = "shard-docker-test-key"


def worker_env(url: str) -> dict:
    return {**os.environ, **QUIET_ENV, "PREFECT_API_URL": url, "PREFECT_WORKER_QUERY_SECONDS": "1"}


def docker_worker(name: str, url: str, sandboxes: Path, folder: Path) -> subprocess.Popen:
    """`nightshift docker-worker` as an operator starts it, from the project folder (``folder``/project)."""
    return start_group([sys.executable, "-m", "nightshift.cli", "docker-worker", "--name", name, "--sandbox-root",
                        str(sandboxes)], worker_env(url), folder / "project", folder / f"{name}.log")


def write_experiment(path: Path, cases: list[str], variants: str, seeds: list[int], concurrency: int, shards: str,
                     extra: str = "") -> Path:
    """A night on the docker backend whose shards run on the docker pool's deployment."""
    path.write_text(f"""
name: {path.stem}
cases: {cases}
variants: {variants}
seeds: {seeds}
concurrency: {concurrency}
sandbox: {{backend: docker, image: "{backend_image('docker')}"}}
shards: {{deployment: nightly-shard/docker, poll_s: 1, {shards}}}
schedule: {{history: none}}
output_dir: runs
{extra}""")
    return path


BOTH = "[{name: strong, model: sim-strong}, {name: weak, model: sim-weak}]"


class SandboxWatch:
    """Every trial sandbox container the engine creates while it runs, from docker's event stream (the engine
    sees the shards' sibling containers; nothing in the run's files names them)."""

    def __init__(self) -> None:
        import docker

        self.created: list[dict[str, str]] = []
        self._events = docker.from_env().events(decode=True, filters={
            "type": "container", "event": "create", "label": "org.nightshift.sandbox"})
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        with contextlib.suppress(Exception):  # the stream ends with an error when stop() closes it
            for event in self._events:
                self.created.append(event["Actor"]["Attributes"])

    def stop(self) -> None:
        time.sleep(1)  # the last creations reach the stream
        self._events.close()
        self._thread.join(10)

    def sandboxes(self, run_id: str) -> list[str]:
        return sorted({a["org.nightshift.sandbox"] for a in self.created if a.get("org.nightshift.run_id") == run_id
                       and "org.nightshift.sidecar" not in a})


@pytest.fixture(scope="module")
def docker_night(prefect_server: str, tmp_path_factory: pytest.TempPathFactory) -> dict:
    make_backend("docker")  # fails under NIGHTSHIFT_REQUIRE_BACKENDS when docker cannot run here
    tmp = tmp_path_factory.mktemp("docker-pool")
    tmp.chmod(0o755)
    project, sandboxes = tmp / "project", tmp / "sandboxes"
    project.mkdir()
    env = worker_env(prefect_server)
    pool = subprocess.run([sys.executable, "-m", "nightshift.cli", "docker-pool", "--share", str(project),
                           "--sandbox-root", str(sandboxes)], env=env, cwd=REPO, capture_output=True, text=True)
    assert pool.returncode == 0, pool.stdout + pool.stderr
    Secret(value="sk-docker-shards").save(SECRET, overwrite=True)
    redis = RedisServer(free_port(), tmp).start()
    log = tmp / "requests.jsonl"
    config = SimulatorConfig(latency_ms=5, requests_per_minute=RPM, tokens_per_minute=10_000_000, burst_s=5)
    workers: list[subprocess.Popen] = []
    try:
        with running_simulator(config, [BUILTIN], log) as url:
            exp = write_experiment(project / "docker-sharded.yaml", CASES, BOTH, [1, 2], 6, "count: 2", f"""
model: {{base_url: "{url}", api_key_env: NIGHTSHIFT_DOCKER_SHARD_UNSET, api_key_secret: {SECRET},
        requests_per_minute: {RPM}, quota_store: "{redis.url}"}}""")
            workers = [docker_worker(f"docker-worker-{i}", prefect_server, sandboxes, tmp) for i in (1, 2)]
            wait_for_workers(POOL, {"docker-worker-1", "docker-worker-2"}, workers)
            watch = SandboxWatch()
            started = time.monotonic()
            try:
                summary = nightly_eval(experiment_file=str(exp))
            finally:
                watch.stop()
            wall = time.monotonic() - started
    finally:
        for worker in workers:
            stop_group(worker)
        redis.stop()
    with get_client(sync_client=True) as client:
        children = client.read_flow_runs(deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=["docker"])))
    run_dir = Path(summary["run_dir"])
    image = pool.stdout.split()[2]  # "worker image sha256:... (built|reused, ...)"
    yield {"summary": summary, "log": read_log(log), "run_dir": run_dir, "wall": wall, "image": image,
           "sandbox_ids": watch.sandboxes(run_dir.name),
           "children": [c for c in children if run_dir.name in c.name], "sandboxes": sandboxes, "tmp": tmp}
    subprocess.run(["umount", "-l", str(sandboxes)], capture_output=True)


def test_the_pool_pins_the_worker_image_by_id(docker_night: dict) -> None:
    pinned = docker_night["image"]
    assert pinned.startswith("sha256:") and len(pinned) == 71
    template = pool_template(pinned, [docker_night["tmp"] / "project"], docker_night["sandboxes"])
    assert template["variables"]["properties"]["image"]["default"] == pinned
    records = [json.loads(p.read_text()) for p in (docker_night["run_dir"] / "shards").glob("*.json")]
    assert len(records) == 2 and {r["image"] for r in records} == {pinned}
    # each shard ran in its own container of that image, with the parent's code (so the same trial ids)
    assert len({r["container"] for r in records}) == 2 and all(len(r["container"] or "") == 64 for r in records)
    manifest = json.loads((docker_night["run_dir"] / "manifest.json").read_text())
    assert {r["code_version"] for r in records} == {manifest["code_version"]}


def test_two_docker_workers_ran_one_shard_each_at_once(docker_night: dict) -> None:
    records = [json.loads(p.read_text()) for p in (docker_night["run_dir"] / "shards").glob("*.json")]
    assert sorted(r["worker"] for r in records) == ["docker-worker-1", "docker-worker-2"]
    assert sum(r["trials"] for r in records) == sum(r["with_result"] for r in records) == len(CASES) * 4
    first, second = sorted(records, key=lambda r: r["started_at"])
    assert second["started_at"] < first["finished_at"], "the two shards did not overlap"
    children = docker_night["children"]
    assert len(children) == 2 and all(c.state.is_completed() for c in children)


def test_every_trial_ran_once_in_a_docker_sandbox(docker_night: dict) -> None:
    parquet = docker_night["summary"]["parquet"]
    rows = duckdb.sql(f"SELECT case_id, model, seed, model_calls, rate_limited, status FROM '{parquet}'").fetchall()
    assert len(rows) == len(CASES) * 4 == len({r[:3] for r in rows})
    assert {r[5] for r in rows} <= {"resolved", "failed"}, Counter(r[5] for r in rows)
    manifest = json.loads((docker_night["run_dir"] / "manifest.json").read_text())
    assert "docker" in json.dumps(manifest["sandbox_identity"])  # the shards refuse any other identity
    served = Counter((r["case_id"], r["model"], r["seed"]) for r in docker_night["log"]
                     if r["case_id"] and r["status"] == 200)
    assert served == {(c, m, s): calls - limited for c, m, s, calls, limited, *_ in rows}
    # the shared Redis buckets kept both shards under the quota
    rejected = sum(r["status"] == 429 for r in docker_night["log"] if r["case_id"])
    assert rejected <= 0.01 * len(docker_night["log"])


def test_no_sandbox_is_left_on_the_host(docker_night: dict) -> None:
    assert is_shared_mount(docker_night["sandboxes"])  # docker-worker made the sandbox root a shared mount
    left = [p.name for p in docker_night["sandboxes"].iterdir()]
    assert not left, f"sandbox folders left: {left}"
    assert not [line for line in Path("/proc/self/mounts").read_text().splitlines()
                if str(docker_night["sandboxes"]) + "/" in line]
    made = docker_night["sandbox_ids"]  # every trial's sandbox, as the engine saw it made
    assert len(made) >= len(CASES) * 4, made
    left_behind = {name: found for name in made if (found := leftovers(name))}
    assert left_behind == {}, left_behind  # containers, cgroups, uid leases, processes, mounts


def test_a_shard_container_killed_mid_night_is_run_again_and_counts_nothing_twice(docker_night: dict,
                                                                                   prefect_server: str) -> None:
    """SIGKILL the shard's container while its trials run: the worker reports the flow run crashed, the parent
    launches the shard again, the new container reaps the sandboxes the dead one left (their owner is a host
    pid, now dead) and runs only what has no result yet; every trial ends with exactly one row."""
    import threading

    import docker

    from nightshift.deployments.docker_pool import create_pool

    tmp, project, sandboxes = docker_night["tmp"], docker_night["tmp"] / "project", docker_night["sandboxes"]
    image = docker_night["image"]
    create_pool(prefect_server, POOL, pool_template(image, [project], sandboxes))
    exp = write_experiment(project / "docker-killed.yaml", CASES, BOTH, [1, 2], 2, "count: 1, retries: 1")
    worker = docker_worker("docker-worker-kill", prefect_server, sandboxes, tmp)
    client, killed = docker.from_env(), []

    def kill_once_three_trials_are_done() -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not killed:
            done = list((project / "runs").glob("docker-killed-*/results/*.json"))
            shards = client.containers.list(filters={"ancestor": image})
            if len(done) >= 3 and shards:
                shards[0].kill()  # SIGKILL: no cleanup of its own runs
                killed.append((shards[0].id, len(done)))
            time.sleep(0.2)

    killer = threading.Thread(target=kill_once_three_trials_are_done, daemon=True)
    try:
        wait_for_workers(POOL, {"docker-worker-kill"}, [worker])
        killer.start()
        summary = nightly_eval(experiment_file=str(exp))
    finally:
        killer.join(5)
        stop_group(worker)
    assert killed, "the shard container was never killed"
    run_dir = Path(summary["run_dir"])
    rows = duckdb.sql(f"SELECT trial_id, status FROM '{summary['parquet']}'").fetchall()
    assert len(rows) == len({t for t, _ in rows}) == len(CASES) * 4
    assert {status for _, status in rows} <= {"resolved", "failed"}  # nothing the kill did is the agent's
    records = [json.loads(p.read_text()) for p in (run_dir / "shards").glob("*.json")]
    assert len(records) == 1 and records[0]["container"] != killed[0][0]  # finished by the second container
    with get_client(sync_client=True) as api:
        runs = api.read_flow_runs(deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=["docker"])))
    mine = [r for r in runs if run_dir.name in r.name]
    assert sorted(r.state.type.value for r in mine) == ["COMPLETED", "CRASHED"]
    leftover = client.containers.list(all=True, filters={"label": f"org.nightshift.run_id={run_dir.name}"})
    assert not leftover, [c.name for c in leftover]  # the dead shard's sandboxes were reaped
    assert not list(sandboxes.iterdir())


def test_a_shard_that_cannot_start_fails_the_night_and_keeps_what_finished(docker_night: dict, prefect_server: str
                                                                          ) -> None:
    """A worker that cannot start the shard's container (its image is gone) crashes the shard; the parent ends
    failed naming it, instead of a 'completed' night with trials silently missing."""
    from nightshift.deployments.docker_pool import create_pool
    from nightshift.flows.shards import ShardError

    tmp, project, sandboxes = docker_night["tmp"], docker_night["tmp"] / "project", docker_night["sandboxes"]
    create_pool(prefect_server, POOL, pool_template("sha256:" + "0" * 64, [project], sandboxes))
    exp = write_experiment(project / "docker-broken.yaml", CASES[:1], "[{name: strong, model: sim-strong}]", [1], 2,
                           "count: 1, retries: 0")
    worker = docker_worker("docker-worker-broken", prefect_server, sandboxes, tmp)
    try:
        with pytest.raises(ShardError, match=r"1 of 1 shards did not complete: shard 1 ended CRASHED.*1 trials have "
                                             r"no result"):
            nightly_eval(experiment_file=str(exp))
    finally:
        stop_group(worker)
    (run_dir,) = (project / "runs").glob("docker-broken-*")
    assert (run_dir / "results.parquet").is_file() and (run_dir / "report.md").is_file()


def test_a_shard_container_whose_sandbox_root_does_not_propagate_is_refused(docker_night: dict) -> None:
    """The same worker image, the sandbox root bound without rshared: the docker backend refuses before any
    sandbox starts (each would get an empty workspace from the engine), naming the fix."""
    image = docker_night["image"]
    root = docker_night["tmp"] / "private-root"
    root.mkdir()
    code = ("from nightshift.sandbox.docker_backend import DockerBackend\n"
            f"DockerBackend({backend_image('docker')!r})\n")
    done = subprocess.run(["docker", "run", "--rm", "--pid", "host", "--network", "host",
                           "-v", "/var/run/docker.sock:/var/run/docker.sock", "-v", f"{root}:{root}",
                           "-e", f"NIGHTSHIFT_SANDBOX_ROOT={root}", image, "python", "-c", code],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert f"this sandbox root {root} does not propagate mounts" in done.stderr and ":rshared" in done.stderr


def test_a_sandbox_started_from_a_shard_container_gets_none_of_its_powers(docker_night: dict,
                                                                          prefect_server: str) -> None:
    """The shard container holds the docker socket, CAP_SYS_ADMIN, the host's /dev and the key; an agent in a
    sandbox it starts must reach none of them, nor the network (the same attacks as on the host)."""
    import asyncio

    import docker
    from prefect_docker.worker import DockerWorkerJobConfiguration

    sandboxes, image = docker_night["sandboxes"], docker_night["image"]
    template = pool_template(image, [docker_night["tmp"] / "project"], sandboxes)
    config = asyncio.run(DockerWorkerJobConfiguration.from_template_and_values(template, {}))
    canary = "sk-canary-" + os.urandom(6).hex()
    port = int(prefect_server.rsplit(":", 1)[1].split("/")[0])  # listening on the host, reachable from the shard
    probe = f"""
from nightshift.contracts import SandboxSpec
from nightshift.sandbox.docker_backend import DockerBackend
sandbox = DockerBackend({backend_image('docker')!r}).create(SandboxSpec(run_id="attack", trial_id="a" * 16))
try:
    for command in ["true",  # the control: commands do run
                    "ls -l /var/run/docker.sock", "ls /dev/loop-control",
                    # 0 only if found; joined at run time, or the command file (/run/nightshift) would hold it
                    "c=sk-canary-; grep -rqs $c{canary.removeprefix('sk-canary-')} /proc/*/environ /workspace /tmp "
                    "/run /etc /grader",
                    "python3 -c \\"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\\"",
                    "mkdir -p /tmp/m && mount -t tmpfs x /tmp/m"]:
        print("EXIT", sandbox.exec(command, timeout_s=20).exit_code, command, flush=True)
finally:
    sandbox.destroy()
"""
    # the shard container exactly as the docker worker creates it from the pool's job template
    output = docker.from_env().containers.run(
        image, ["python", "-c", probe], remove=True, network_mode=config.network_mode, volumes=config.volumes,
        environment={**config.env, "NIGHTSHIFT_API_KEY": canary}, **config.container_create_kwargs).decode()
    exits = [line.split()[1] for line in output.splitlines() if line.startswith("EXIT ")]
    assert len(exits) == 6 and exits[0] == "0" and all(code != "0" for code in exits[1:]), output


def test_shard_pool_bench(docker_night: dict, tmp_path: Path) -> None:
    """bench/shard_pool_bench.py at smoke size, after this file's night built the worker image it reuses."""
    out = run_bench("shard_pool_bench", "--out", str(tmp_path / "shard_pool.json"), timeout_s=900)
    assert '"docker_over_process_wall"' in out
