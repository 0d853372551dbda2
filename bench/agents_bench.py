"""Install time and image size of every catalogue agent, on each sandbox backend.

    .venv/bin/python -m bench.agents_bench --backends docker,bubblewrap --rebuild

For each entry of the catalogue (nightshift.plugins.AGENTS) at each pinned version, the derived image of its
install lines is built on the backend's base image exactly as a night builds it (harnesses/pins.derive),
timed, and measured: docker, the committed image's size minus the base image's; bubblewrap, the rootfs
folder's size minus the base rootfs's (du). A refused entry is printed with its measured reason. Without
--rebuild an image already in the cache is reused and says so (its time is the lookup's, not an install's);
--rebuild first removes the derived image of that key (only that one, which this command builds again).
--smoke resolves every entry and reuses only what is cached (nothing is built): it proves the command runs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from bench.smoke import SMOKE_NOTE, add_smoke, apply_smoke
from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses.catalogue import catalogue_entry, resolve_installed
from nightshift.harnesses.derived_image import REPOSITORY, content_key
from nightshift.harnesses.pins import derive
from nightshift.plugins import AGENTS
from nightshift.sandbox.factory import backend_for
from nightshift.sandbox.images import image_cache, latest_build


def _du_mb(path: Path) -> float:
    out = subprocess.run(["du", "-sb", "--apparent-size", str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[0]) / 1e6


def _base(name: str):
    build = latest_build()
    if build is None:
        sys.exit("no built sandbox image: run `nightshift build-image` (or make test-setup) first")
    return backend_for(name, str(build.rootfs) if name == "bubblewrap" else build.image_id)


def _forget(backend, install: list[str]) -> None:
    """Remove the cached derived image of these lines on this base, so the next derive builds it."""
    if backend.name == "docker":
        key = content_key(f"docker:{backend.image_id}", install)
        for image in backend.client.images.list(filters={"reference": f"{REPOSITORY}:{key}"}):
            backend.client.images.remove(image.id, force=True)
    else:
        shutil.rmtree(image_cache() / "derived" / content_key(backend.identity(), install), ignore_errors=True)


def _cached(backend, install: list[str]) -> bool:
    if backend.name == "docker":
        key = content_key(f"docker:{backend.image_id}", install)
        return bool(backend.client.images.list(filters={"reference": f"{REPOSITORY}:{key}"}))
    return (image_cache() / "derived" / content_key(backend.identity(), install) / "rootfs" / "usr").is_dir()


def measure(backend, spec: HarnessSpec, rebuild: bool, smoke: bool) -> str:
    command, _, _ = resolve_installed(spec)
    if rebuild and not smoke:
        _forget(backend, command.install)
    if smoke and not _cached(backend, command.install):
        return "not cached (smoke builds nothing)"
    derived, made = derive(backend, command)
    if backend.name == "docker":
        size = backend.client.images.get(made.image).attrs["Size"] - backend.client.images.get(
            backend.image_id).attrs["Size"]
        added = size / 1e6
    else:
        added = _du_mb(Path(made.image)) - _du_mb(Path(backend.rootfs))
    how = "built" if made.built else "reused from the cache"
    return f"{made.seconds:7.1f} s ({how}) | +{added:,.0f} MB | key {made.key}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backends", default="docker", help="comma-separated: docker, bubblewrap")
    parser.add_argument("--agents", default="", help="comma-separated catalogue names (default: all)")
    parser.add_argument("--rebuild", action="store_true", help="time a fresh install (removes that key's image)")
    add_smoke(parser)
    args = apply_smoke(parser.parse_args())
    names = [n for n in args.agents.split(",") if n] or AGENTS.names()
    print("| agent | version | protocol | backend | install time | image size (added) |")
    print("|---|---|---|---|---|---|")
    for backend_name in args.backends.split(","):
        backend = _base(backend_name)
        for name in names:
            entry, _ = catalogue_entry(name)
            for version in entry.versions:
                head = f"| {name} | {version} | {entry.protocol} | {backend_name} |"
                if entry.refused:
                    print(f"{head} refused | {entry.refused} |")
                    continue
                spec = HarnessSpec(kind="installed", name=name, version=version)
                print(f"{head} {measure(backend, spec, args.rebuild, args.smoke)} |", flush=True)
    if args.smoke:
        print(SMOKE_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
