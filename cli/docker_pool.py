"""``nightshift docker-pool`` and ``docker-worker``: the parser only; the commands (deployments/docker_pool.py)
import Prefect, so they load when one of them runs (building the parser must not: ``run --ephemeral`` picks its
Prefect profile after parsing)."""

from __future__ import annotations

import argparse
from pathlib import Path

from nightshift.deployments.pool_defaults import POOL, SANDBOX_ROOT


def _pool(args: argparse.Namespace) -> int:
    from nightshift.deployments.docker_pool import pool_command

    return pool_command(args)


def _worker(args: argparse.Namespace) -> int:
    from nightshift.deployments.docker_pool import worker_command

    return worker_command(args)


def add_docker_pool_commands(sub: argparse._SubParsersAction) -> None:
    pool = sub.add_parser("docker-pool", help="build the shard worker image from this checkout and create the "
                                              "Prefect docker work pool that runs shards in it (docs/SCALING.md)")
    pool.add_argument("--name", default=POOL, help=f"work pool name (default {POOL})")
    pool.add_argument("--share", action="append", type=Path, metavar="DIR",
                      help="a host folder shard containers see at the same path (repeatable; default: this "
                           "project folder, which holds the experiments, suites and runs/)")
    pool.add_argument("--sandbox-root", type=Path, default=SANDBOX_ROOT, help=f"default {SANDBOX_ROOT}")
    pool.add_argument("--port", type=int, help="the local Prefect server's port (without PREFECT_API_URL)")
    pool.add_argument("--wheel", type=Path, help="the nightshift wheel installed here (default: build one from "
                                                 "the checkout nightshift runs from)")
    pool.add_argument("--no-deploy", action="store_true", help="do not apply the docker shard deployment")
    pool.set_defaults(fn=_pool)
    worker = sub.add_parser("docker-worker", help="prepare this host for shard containers (root) and start a "
                                                  "Prefect docker worker on the pool")
    worker.add_argument("--pool", default=POOL)
    worker.add_argument("--limit", type=int, default=1, help="shards at once on this machine (default 1)")
    worker.add_argument("--name", help="worker name (default: Prefect's)")
    worker.add_argument("--sandbox-root", type=Path, default=SANDBOX_ROOT, help=f"default {SANDBOX_ROOT}")
    worker.set_defaults(fn=_worker)
