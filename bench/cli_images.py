"""Install time and image size of the vendor CLIs' derived sandbox images (harnesses/cli_recipes.py).

    .venv/bin/python -m bench.cli_images --backend bubblewrap --fresh
    .venv/bin/python -m bench.cli_images --backend docker --fresh

Each recipe's install lines are built on the backend's base image (the latest `scripts/build_sandbox_image.py`
build) as a trial's variant would be (harnesses/pins.derive). `--fresh` adds one no-op line with a random
word, so the content key is new and the image is built cold (apt, pip download of the pinned wheel from
PyPI, install); the scratch image is removed afterwards (`--keep` keeps it). Without it the cached image is
reused when there is one. Prints: agent, wheel, built or reused, seconds, image size and the base's size.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses.cli_recipes import PACKAGES, RECIPES
from nightshift.harnesses.pins import derive
from nightshift.sandbox.factory import backend_for
from nightshift.sandbox.images import latest_build

MB = 1_000_000


def _rootfs_bytes(path: str) -> int:
    done = subprocess.run(["du", "-sb", path], capture_output=True, text=True, check=True)
    return int(done.stdout.split()[0])


def _docker_bytes(image: str) -> int:
    import docker

    return int(docker.from_env().images.get(image).attrs["Size"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["bubblewrap", "docker"], default="bubblewrap")
    parser.add_argument("--agents", default=",".join(RECIPES), help="recipes to build (comma-separated)")
    parser.add_argument("--fresh", action="store_true", help="build cold under a new content key")
    parser.add_argument("--keep", action="store_true", help="with --fresh: keep the scratch image")
    add_smoke(parser, fresh=False)
    args = apply_smoke(parser.parse_args())
    build = latest_build()
    if build is None:
        print("no sandbox image built; run: .venv/bin/python scripts/build_sandbox_image.py", file=sys.stderr)
        return 2
    base = backend_for(args.backend, str(build.rootfs) if args.backend == "bubblewrap" else build.image_id)
    size = _rootfs_bytes if args.backend == "bubblewrap" else _docker_bytes
    base_image = str(build.rootfs) if args.backend == "bubblewrap" else build.image_id
    print(f"backend {args.backend}; base image {size(base_image) / MB:.0f} MB")
    print("| agent | wheel | image | seconds | image MB |")
    print("|---|---|---|---|---|")
    for name in args.agents.split(","):
        entry = RECIPES[name]
        version = entry.versions[0]
        install = [line.replace("{version}", version) for line in entry.install]
        if args.fresh:
            install.append(f": bench-{uuid.uuid4().hex[:12]}")
        _, made = derive(base, HarnessSpec(kind="command", install=install, run=entry.run))
        print(f"| {name} | {PACKAGES[name]}=={version} | {'built' if made.built else 'reused'} | "
              f"{made.seconds:.1f} | {size(made.image) / MB:.0f} |", flush=True)
        if args.fresh and not args.keep:
            if args.backend == "bubblewrap":
                shutil.rmtree(Path(made.image).parent, ignore_errors=True)
            else:
                subprocess.run(["docker", "rmi", "-f", made.image], capture_output=True, check=False)
    return judged(args, 0)  # no target: the figures are recorded in docs/BENCHMARKS.md


if __name__ == "__main__":
    sys.exit(main())
