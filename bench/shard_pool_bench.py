"""What a container costs a shard: the same sharded night on process workers and on docker workers, side by side.

    .venv/bin/python -m bench.shard_pool_bench            # --cases 20 --seeds 2 --rounds 2 (root, docker)

Everything is real: a `prefect server start`, the simulator over HTTP with a requests/min quota, a Redis
quota store, two process workers on the `nightshift-local` pool (`nightly-shard/shard`) and two docker
workers on the pool `nightshift docker-pool` creates (`nightly-shard/docker`, the worker image pinned by id),
the docker sandbox backend for every trial in both, and the built-in cases with the reference loop. Each
round runs the night once per pool, in alternating order (P D, then D P), each into its own output folder
(its own trial cache: nothing is answered from the other's rows). Printed per night: its wall time, how long
each shard waited from launch to running (worker poll + container start) and ran, and trials per second.
Figures: bench/results/shard_pool.json; docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.smoke import add_smoke, apply_smoke, judged

REPO = Path(__file__).resolve().parent.parent
BUILTIN = REPO / "suites" / "builtin"
RPM = 1200


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _experiment(folder: Path, name: str, cases: list[str], seeds: int, image: str, url: str, redis: str,
                deployment: str) -> Path:
    exp = folder / f"{name}.yaml"
    exp.write_text(f"""
name: {name}
cases: {cases}
variants: [{{name: strong, model: sim-strong}}, {{name: weak, model: sim-weak}}]
seeds: {list(range(1, seeds + 1))}
concurrency: 8
sandbox: {{backend: docker, image: "{image}"}}
model: {{base_url: "{url}", api_key_env: NIGHTSHIFT_BENCH_UNSET, api_key_secret: shard-bench-key,
        requests_per_minute: {RPM}, quota_store: "{redis}"}}
shards: {{count: 2, deployment: {deployment}, poll_s: 1}}
schedule: {{history: none}}
output_dir: runs-{name}
""")
    return exp


def _night(exp: Path, pool: str) -> dict:
    from prefect.client.orchestration import get_client

    from nightshift.flows.nightly_eval import nightly_eval

    started = time.monotonic()
    summary = nightly_eval(experiment_file=str(exp))
    wall = time.monotonic() - started
    run_dir = Path(summary["run_dir"])
    records = [json.loads(p.read_text()) for p in (run_dir / "shards").glob("*.json")]
    waits, runs = [], []
    with get_client(sync_client=True) as client:
        for record in records:
            flow_run = client.read_flow_run(record["flow_run"])
            waits.append((flow_run.start_time - flow_run.created).total_seconds())
            runs.append((flow_run.end_time - flow_run.start_time).total_seconds())
    trials = sum(r["trials"] for r in records)
    return {"pool": pool, "wall_s": round(wall, 1), "trials": trials, "trials_per_s": round(trials / wall, 2),
            "shard_wait_s": [round(w, 1) for w in sorted(waits)], "shard_run_s": [round(r, 1) for r in sorted(runs)],
            "containers": sorted(filter(None, (r["container"] for r in records)))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "shard_pool.json")
    add_smoke(parser, cases=2, seeds=1, rounds=1)
    args = apply_smoke(parser.parse_args(argv))
    os.environ.update({"DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                       "PREFECT_LOGGING_LEVEL": "WARNING"})
    tmp = Path(tempfile.mkdtemp(prefix="shard-pool-bench-"))
    tmp.chmod(0o755)
    os.environ["PREFECT_HOME"] = str(tmp / "prefect")
    os.environ["NIGHTSHIFT_SANDBOX_ROOT"] = str(tmp / "sandboxes")
    from prefect.blocks.system import Secret
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from nightshift.deployments.docker_pool import prepare_host
    from nightshift.deployments.pool_defaults import POOL
    from nightshift.deployments.server import QUIET_ENV, deploy, ensure_server, stop
    from nightshift.sandbox.images import latest_build
    from nightshift.simulator.config import SimulatorConfig
    from nightshift.simulator.embedded import running_simulator
    sys.path.insert(0, str(REPO))
    from tests.process_support import start_group, stop_group, wait_for_workers
    from tests.redis_support import RedisServer

    build = latest_build()
    if build is None or not build.image_id:
        sys.exit("no sandbox image: run nightshift build-image first")
    cases = sorted(p.name for p in BUILTIN.iterdir() if (p / "case.toml").is_file())[:args.cases]
    project, sandboxes = tmp / "project", tmp / "sandboxes"
    project.mkdir()
    prepare_host(sandboxes)
    url = ensure_server(port=_free_port(), home=tmp / "prefect-server", state_dir=tmp, timeout_s=300)
    env = {**os.environ, **QUIET_ENV, "PREFECT_API_URL": url, "PREFECT_WORKER_QUERY_SECONDS": "1"}
    workers: list[subprocess.Popen] = []
    redis = RedisServer(_free_port(), tmp).start()
    nights = []
    try:
        with temporary_settings(updates={PREFECT_API_URL: url}):
            os.environ["PREFECT_API_URL"] = url
            deploy(url)  # nightshift-local and prefect.yaml's deployments on it
            made = subprocess.run([sys.executable, "-m", "nightshift.cli", "docker-pool", "--share", str(project),
                                   "--sandbox-root", str(sandboxes)], env=env, cwd=REPO, capture_output=True,
                                  text=True)
            if made.returncode != 0:
                sys.exit(made.stdout + made.stderr)
            print(made.stdout.splitlines()[0], flush=True)
            Secret(value="sk-bench").save("shard-bench-key", overwrite=True)
            for i in (1, 2):
                workers.append(start_group([sys.executable, "-m", "prefect", "worker", "start", "--pool",
                                       "nightshift-local", "--name", f"process-{i}", "--limit", "1"], env, REPO,
                                      tmp / f"process-{i}.log"))
                workers.append(start_group([sys.executable, "-m", "nightshift.cli", "docker-worker", "--pool", POOL,
                                       "--name", f"docker-{i}", "--sandbox-root", str(sandboxes)], env, project,
                                      tmp / f"docker-{i}.log"))
            wait_for_workers("nightshift-local", {"process-1", "process-2"}, workers)
            wait_for_workers(POOL, {"docker-1", "docker-2"}, workers)
            config = SimulatorConfig(latency_ms=5, requests_per_minute=RPM, tokens_per_minute=10_000_000, burst_s=5)
            with running_simulator(config, [BUILTIN], tmp / "requests.jsonl") as sim:
                for round_ in range(args.rounds):
                    order = [("process", "nightly-shard/shard"), ("docker", "nightly-shard/docker")]
                    for pool, deployment in order if round_ % 2 == 0 else order[::-1]:
                        exp = _experiment(project, f"{pool}-r{round_ + 1}", cases, args.seeds, build.image_id,
                                          sim, redis.url, deployment)
                        night = _night(exp, pool)
                        nights.append(night)
                        print(json.dumps(night), flush=True)
    finally:
        for worker in workers:
            stop_group(worker)
        redis.stop()
        stop("prefect-server", tmp)
        subprocess.run(["umount", "-l", str(sandboxes)], capture_output=True)
    summary = {}
    for pool in ("process", "docker"):
        mine = [n for n in nights if n["pool"] == pool]
        summary[pool] = {"wall_s_median": statistics.median(n["wall_s"] for n in mine),
                         "shard_wait_s_median": statistics.median(w for n in mine for w in n["shard_wait_s"]),
                         "shard_run_s_median": statistics.median(r for n in mine for r in n["shard_run_s"])}
    summary["docker_over_process_wall"] = round(summary["docker"]["wall_s_median"]
                                                / summary["process"]["wall_s_median"], 3)
    print(json.dumps(summary, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"nights": nights, "summary": summary, "cases": len(cases),
                                    "seeds": args.seeds, "load": os.getloadavg()}, indent=1) + "\n")
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
