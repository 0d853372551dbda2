"""Fetch, at import time, what a Harbor verifier would download at verify time: uv and a wheelhouse.

Both come from PyPI through pip on the importing host (uv is published there as a wheel holding the
binary), are cached by content under the image cache, and are copied into the verifier layer of the
task's image (suites/harbor/environment.py). Nothing is downloaded at trial time.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from packaging.markers import UndefinedEnvironmentName
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

from nightshift.sandbox.images import image_cache
from nightshift.suites.harbor.task import TaskRefused

PLATFORMS = ("manylinux_2_17_x86_64", "manylinux2014_x86_64", "linux_x86_64")


def _cache(kind: str, key: str) -> Path:
    return image_cache() / "harbor-toolchain" / f"{kind}-{key}"


def _pip_download(args: list[str], into: Path, what: str) -> None:
    tmp = into.with_name(into.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    argv = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(tmp), "--only-binary=:all:", *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        tail = "\n".join(proc.stderr.strip().splitlines()[-6:])
        raise TaskRefused(f"{what}: pip could not download it from PyPI at import time:\n{tail}\nFix: make PyPI "
                          f"reachable for the import (only the import needs it), or pin a version that has wheels")
    shutil.rmtree(into, ignore_errors=True)
    tmp.rename(into)


def fetch_uv(version: str, what: str) -> Path:
    """A folder with the uv and uvx binaries of ``version``."""
    folder = _cache("uv", version)
    if (folder / "uv").is_file():
        return folder
    wheels = _cache("uv-wheel", version)
    platform = [f"--platform={p}" for p in PLATFORMS]
    _pip_download([f"uv=={version}", "--no-deps", *platform], wheels, what)
    wheel = next(wheels.glob("uv-*.whl"))
    tmp = folder.with_name(folder.name + ".partial")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if "/scripts/" in name and name.rsplit("/", 1)[1] in ("uv", "uvx"):
                target = tmp / name.rsplit("/", 1)[1]
                target.write_bytes(archive.read(name))
                target.chmod(0o755)
    if not (tmp / "uv").is_file():
        raise TaskRefused(f"{what}: the uv {version} wheel holds no uv binary; pin another uv version")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return folder


def fetch_wheels(requirements: list[str], python: str, what: str) -> Path:
    """A wheelhouse with ``requirements`` and their dependencies, for CPython ``python`` (e.g. '3.11')."""
    key = hashlib.sha256(json.dumps([sorted(requirements), python, "all-platforms"]).encode()).hexdigest()[:16]
    folder = _cache("wheels", key)
    if (folder / ".complete").is_file():
        return folder
    tag = python.replace(".", "")
    args = [*requirements, f"--python-version={python}", "--implementation=cp", f"--abi=cp{tag}", "--abi=abi3",
            "--abi=none", *[f"--platform={p}" for p in PLATFORMS]]
    _pip_download(args, folder, what)
    # `uv add` locks for every platform, so the dependencies only other platforms need (colorama on
    # Windows) must be there too, or the lock fails offline; pip judges markers for this host only
    for round_ in range(5):
        missing = _other_platform_requirements(folder, python)
        if not missing:
            break
        extra = folder.with_name(f"{folder.name}.other{round_}")
        _pip_download([*missing, "--no-deps", "--python-version", python, "--implementation=cp", "--abi=none",
                       "--platform=any"], extra, what)
        for wheel in extra.glob("*.whl"):
            wheel.rename(folder / wheel.name)
        shutil.rmtree(extra, ignore_errors=True)
    (folder / ".complete").write_text(json.dumps(sorted(p.name for p in folder.glob("*.whl"))))
    return folder


def wheel_names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.whl"))


def _other_platform_requirements(folder: Path, python: str) -> list[str]:
    """Requirements of the wheels in ``folder`` that apply on Windows or macOS and are not there yet."""

    have = {canonicalize_name(parse_wheel_filename(w.name)[0]) for w in folder.glob("*.whl")}
    wanted: dict[str, str] = {}
    platforms = [{"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt"},
                 {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix"}]
    for wheel in folder.glob("*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            meta = next((n for n in archive.namelist() if n.endswith(".dist-info/METADATA")), None)
            text = archive.read(meta).decode("utf-8", "replace") if meta else ""
        for line in text.splitlines():
            if not line.startswith("Requires-Dist:"):
                continue
            req = Requirement(line.split(":", 1)[1].strip())
            if req.marker is None or canonicalize_name(req.name) in have:
                continue
            try:
                applies = any(req.marker.evaluate({**env, "python_version": python, "extra": ""}) for env in platforms)
            except UndefinedEnvironmentName:
                applies = False
            if applies:
                wanted[canonicalize_name(req.name)] = f"{req.name}{req.specifier}"
    return sorted(wanted.values())
