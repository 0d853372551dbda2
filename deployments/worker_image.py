"""The shard worker image: this checkout's nightshift, installed from its own wheel on the sandbox base image.

A Prefect docker work pool runs each shard flow run in a container of this image (docs/SCALING.md,
deployments/docker_pool.py). It is built locally (no registry is needed), cached by content and pinned by
id, like the sandbox images:

* the wheel is built from the checkout this code runs from (``pip wheel --no-deps``), so the container's
  code version (experiment/manifest.py: a hash of every module) is the parent's and its trial ids match;
* every third-party package is installed at the version this environment has (a constraints file made
  from it), so the container runs the same Prefect, pydantic, docker SDK, ... as the machine that pinned the
  night;
* the content key hashes the wheel's files (not its zip timestamps), the constraints, the recipe below and
  the base image id: an unchanged checkout reuses ``nightshift/worker:<key>``, any edit builds a new one.

The build needs network once (Debian's python3-venv, PyPI for the pinned packages), like a harness's
``install`` lines; nothing downloads when a shard runs.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from docker.types import Mount

from nightshift.errors import OrchestrationError
from nightshift.experiment.manifest import code_version
from nightshift.harnesses.derived_image import commit_image
from nightshift.resources import is_installed, package_path

FORMAT = 1  # bump when the steps below change what ends up in the image
REPOSITORY = "nightshift/worker"
LABEL = "org.nightshift.worker"
EXTRAS = "production,docker-pool"  # PostgreSQL/Redis clients (quota store, server) and the docker worker
APT = ["python3-venv", "e2fsprogs"]  # the venv; mkfs.ext4 for each sandbox's quota disk (sandbox/disk.py)
VENV = "/opt/nightshift"
WORKDIR = "/srv/nightshift"
WHEELS_INSIDE = "/tmp/nightshift-wheel"


# run in the image after the install: a shard whose code differs would have other trial ids
CHECK_CODE = """import sys
from nightshift.experiment.manifest import code_version
if code_version() != sys.argv[1]:
    sys.exit(f"this image computes code version {code_version()}, the host {sys.argv[1]}: "
             "the wheel is not the nightshift installed there")
"""


class WorkerImageError(OrchestrationError):
    """The worker image cannot be built here; the message says why and what to do."""


@dataclass(frozen=True)
class WorkerImage:
    key: str
    image_id: str
    built: bool
    seconds: float
    code_version: str


def checkout_root() -> Path:
    """The source checkout nightshift runs from (an editable install), or a clear error for an installed wheel."""
    source = package_path("nightshift")
    root = source.parent
    project = root / "pyproject.toml"
    if is_installed(source) or not project.is_file() or 'name = "nightshift"' not in project.read_text():
        raise WorkerImageError(f"nightshift runs from {source}, not from a source checkout: pass --wheel with the "
                               f"nightshift wheel installed here, or run from a checkout (pip install -e .)")
    return root


# what a build must not see: a stale build/lib would put deleted modules into the wheel
NOT_SOURCE = shutil.ignore_patterns(".venv", ".git", "runs", ".nightshift", "build", "dist", "*.egg-info",
                                    "__pycache__", "test-output", ".pytest_cache", ".ruff_cache")


def build_wheel(root: Path, out: Path) -> Path:
    """The nightshift wheel of ``root``, built from a clean copy (the build writes build/ and egg-info beside its
    source) with this environment's setuptools: no network, no isolation."""
    src = out / "src"
    shutil.copytree(root, src, ignore=NOT_SOURCE)
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out),
                           str(src)], capture_output=True, text=True)
    shutil.rmtree(src, ignore_errors=True)
    wheels = sorted(out.glob("nightshift-*.whl"))
    if done.returncode != 0 or not wheels:
        raise WorkerImageError(f"building the nightshift wheel of {root} failed:\n{done.stdout[-2000:]}"
                               f"{done.stderr[-2000:]}")
    return wheels[-1]


def wheel_digest(wheel: Path) -> str:
    """A hash of the wheel's member names and bytes: the same files give the same key whenever it was built."""
    digest = hashlib.sha256()
    with zipfile.ZipFile(wheel) as archive:
        for info in sorted(archive.infolist(), key=lambda i: i.filename):
            if info.filename.endswith(".dist-info/RECORD"):
                continue  # hashes of the members above, nothing more
            digest.update(info.filename.encode() + b"\0" + archive.read(info) + b"\0")
    return digest.hexdigest()


def constraints() -> list[str]:
    """``name==version`` for every distribution installed here except nightshift itself."""
    pins = {}
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name and name != "nightshift":
            pins[name] = f"{name}=={dist.version}"
    return sorted(pins.values())


def content_key(base_image_id: str, wheel_sha: str, pins: list[str]) -> str:
    blob = json.dumps({"format": FORMAT, "base": base_image_id, "wheel": wheel_sha, "constraints": pins,
                       "extras": EXTRAS, "apt": APT, "python": sys.version_info[:2]}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def build_worker_image(client, base_image_id: str, wheel: Path | None = None) -> WorkerImage:
    """``nightshift/worker:<key>`` for this checkout (or ``wheel``: the one installed here) on ``base_image_id``:
    reused, or built now (a minute or two). The image must compute this process's code version, or the build fails."""


    here = code_version()
    with tempfile.TemporaryDirectory(prefix="nightshift-wheel-") as folder:
        out = Path(folder)
        out.chmod(0o755)
        wheel = build_wheel(checkout_root(), out) if wheel is None else Path(shutil.copy(wheel, out / wheel.name))
        (out / "check_code.py").write_text(CHECK_CODE)
        pins = constraints()
        (out / "constraints.txt").write_text("\n".join(pins) + "\n")
        key = content_key(base_image_id, wheel_digest(wheel), pins)
        commands = [
            "apt-get update -qq && apt-get install -y -qq --no-install-recommends " + " ".join(APT)
            + " >/dev/null && rm -rf /var/lib/apt/lists/*",
            f"python3 -m venv {VENV}",
            f"{VENV}/bin/pip install -q -c {WHEELS_INSIDE}/constraints.txt '{WHEELS_INSIDE}/{wheel.name}[{EXTRAS}]'",
            f"{VENV}/bin/python {WHEELS_INSIDE}/check_code.py {here}",
            f"mkdir -p {WORKDIR}",
        ]
        changes = [f"ENV PATH={VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                   "ENV HOME=/root", "ENV DO_NOT_TRACK=1", "ENV PREFECT_SERVER_ANALYTICS_ENABLED=false",
                   "USER 0:0", f"WORKDIR {WORKDIR}", 'CMD ["prefect", "version"]',
                   f"LABEL {LABEL}.code-version={here}"]
        built = commit_image(client, base_image_id, commands, key=key, repository=REPOSITORY, label=LABEL,
                             changes=changes, mounts=[Mount(WHEELS_INSIDE, str(out), type="bind", read_only=True)],
                             fix="the worker image installs this checkout's wheel with the environment's pins: "
                                 "check the network to PyPI and Debian, and that pip install -e . works here")
    return WorkerImage(key, built.image, built.built, built.seconds, here)
