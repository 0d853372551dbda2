"""Write the build context of one stand-in image: its Dockerfile, the PyPI wheels and uv binaries it installs.

Everything a stand-in needs from the network is fetched here on the building host (pip download from
PyPI, cached under the image cache), so the docker build itself only runs apt against the Debian mirror.
The Dockerfile starts from a config-free import of the project's Debian rootfs (no USER, WORKDIR, HOME or
LANG of the sandbox image leak into it), or from scratch for the distroless uv image.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from nightshift.sandbox.standins import UV_VERSION, StandIn

WHEELS_IN_BUILD = "/tmp/nightshift-standin-wheels"
LOCAL_CAS = Path("/usr/local/share/ca-certificates")
UV_PLATFORM = "musllinux_1_1_x86_64"  # static binaries: they run in scratch, as the real ones do


def _pip_download(pins: list[str], into: Path, extra: list[str]) -> None:
    if (into / ".complete").is_file():
        return
    partial = into.with_name(into.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
            "--dest", str(partial), *extra, *pins]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"pip download {' '.join(pins)} failed (PyPI is needed at build time only):\n"
                           f"{done.stderr.strip()[-1500:]}")
    (partial / ".complete").write_text(json.dumps(sorted(p.name for p in partial.glob("*.whl"))))
    shutil.rmtree(into, ignore_errors=True)
    partial.rename(into)


def fetch_wheels(pins: list[str], cache: Path) -> Path:
    """A folder holding exactly these pure-Python wheels (pip, setuptools, wheel), cached by the pins."""
    folder = cache / "standin-wheels" / hashlib.sha256(json.dumps(sorted(pins)).encode()).hexdigest()[:16]
    _pip_download(pins, folder, [])
    return folder


def fetch_uv_binaries(cache: Path, version: str = UV_VERSION) -> Path:
    """A folder with the uv and uvx binaries taken from the PyPI uv wheel of ``version``."""
    folder = cache / "standin-uv" / version
    if (folder / "uv").is_file() and (folder / "uvx").is_file():
        return folder
    wheels = cache / "standin-uv" / f"{version}-wheel"
    _pip_download([f"uv=={version}"], wheels, [f"--platform={UV_PLATFORM}"])
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    with zipfile.ZipFile(next(wheels.glob("uv-*.whl"))) as archive:
        for member in archive.namelist():
            name = member.rsplit("/", 1)[-1]
            if ".data/scripts/" in member and name in ("uv", "uvx"):
                (partial / name).write_bytes(archive.read(member))
                (partial / name).chmod(0o755)
    if not (partial / "uvx").is_file():
        raise RuntimeError(f"the uv {version} wheel holds no uv/uvx binaries; pin another UV_VERSION")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return folder


def local_cas() -> list[Path]:
    """The CAs this machine adds to Debian's bundle: build-time pip reaches PyPI through them, as the host's does."""
    return sorted(p for p in LOCAL_CAS.rglob("*.crt") if p.is_file()) if LOCAL_CAS.is_dir() else []


def _labels(standin: StandIn, key: str, differs: list[str], base_id: str) -> str:
    labels = {**standin.labels, "org.nightshift.stands-in-for": standin.name,
              "org.nightshift.standin-names": ",".join(standin.names), "org.nightshift.standin-key": key,
              "org.nightshift.standin-base": base_id, "org.nightshift.standin-differs": " | ".join(differs)}
    return "LABEL " + " ".join(f"{json.dumps(k)}={json.dumps(v)}" for k, v in sorted(labels.items()))


def _python_steps(standin: StandIn, wheels: list[str]) -> list[str]:
    # /usr/local/bin/python3.X -> Debian's interpreter: the paths tasks call exist; pip writes /usr/local
    pins = " ".join(w.split("==")[0] for w in standin.wheels)
    return [
        f"COPY wheels/ {WHEELS_IN_BUILD}/",
        "RUN set -eu; py=$(readlink -f /usr/bin/python3); v=${py##*/}; "
        'ln -s "$py" /usr/local/bin/$v; ln -s $v /usr/local/bin/python3; ln -s python3 /usr/local/bin/python; '
        "ln -s /usr/bin/pydoc3 /usr/local/bin/pydoc3; ln -s pydoc3 /usr/local/bin/pydoc; "
        # the real image's Python is not Debian's, so it has no EXTERNALLY-MANAGED marker: pip install works
        'rm -f "/usr/lib/$v/EXTERNALLY-MANAGED"; '
        f"/usr/local/bin/python3 {WHEELS_IN_BUILD}/{wheels[0]}/pip install --quiet --no-index --no-cache-dir "
        f"--disable-pip-version-check --root-user-action=ignore --find-links {WHEELS_IN_BUILD} {pins}; "
        f"rm -rf {WHEELS_IN_BUILD} /root/.cache",
    ]


def dockerfile(standin: StandIn, root_image: str, python_version: str | None, wheels: list[str], key: str,
               differs: list[str], cas: list[str]) -> str:
    """The Dockerfile text. ``differs`` goes into a label, so it is part of the content key; ``key`` (a label
    too) is computed from the text rendered with ``key=""``."""
    if standin.kind == "uv":
        lines = ["FROM scratch", "COPY uv/uv uv/uvx /"]
    else:
        lines = [f"FROM {root_image}", "USER 0:0"]
        if standin.apt:
            lines.append("RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "
                         f"--no-install-recommends {' '.join(standin.apt)} && rm -rf /var/lib/apt/lists/*")
        if cas:
            lines += ["COPY ca/ /usr/local/share/ca-certificates/nightshift-host/", "RUN update-ca-certificates"]
        for user, uid in sorted(standin.users.items()):
            lines.append(f"RUN useradd --uid {uid} --user-group --create-home --shell /bin/bash {user}")
        if standin.kind == "python":
            lines += _python_steps(standin, wheels)
    env = dict(standin.env)
    if standin.kind == "python" and python_version:
        env["PYTHON_VERSION"] = python_version  # what is installed, not what the real image would have
    if env:
        lines.append("ENV " + " ".join(f"{k}={json.dumps(v)}" for k, v in env.items()))
    if standin.kind != "uv" or standin.workdir != "/":
        lines.append(f"WORKDIR {standin.workdir}")
    if standin.entrypoint:
        lines.append(f"ENTRYPOINT {json.dumps(standin.entrypoint)}")
    if standin.cmd:
        lines.append(f"CMD {json.dumps(standin.cmd)}")
    lines.append(_labels(standin, key, differs, root_image))
    return "\n".join(lines) + "\n"


def write_context(standin: StandIn, cache: Path, into: Path) -> tuple[list[str], list[str]]:
    """Fill ``into`` with what the Dockerfile copies; returns (wheel file names, local CA file names)."""
    wheels: list[str] = []
    cas: list[str] = []
    if standin.kind == "uv":
        (into / "uv").mkdir(parents=True)
        for binary in fetch_uv_binaries(cache).iterdir():
            shutil.copy2(binary, into / "uv" / binary.name)
        return wheels, cas
    if standin.kind == "python":
        (into / "wheels").mkdir(parents=True)
        house = fetch_wheels(standin.wheels, cache)
        first = standin.wheels[0].split("==")[0]
        ordered = sorted(house.glob("*.whl"), key=lambda p: (not p.name.startswith(f"{first}-"), p.name))
        for wheel in ordered:
            shutil.copy2(wheel, into / "wheels" / wheel.name)
        wheels = [p.name for p in ordered]
    found = local_cas()
    if found:
        (into / "ca").mkdir(parents=True)
        for path in found:
            shutil.copy2(path, into / "ca" / path.name)
        cas = [p.name for p in found]
    return wheels, cas


def context_hash(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()

