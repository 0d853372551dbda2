"""Build a Harbor task's environment with the docker engine, exactly as its Dockerfile says.

The context is the Dockerfile's folder; ``FROM`` names are resolved to local image ids first (a
suite's base-image map may point a registry name at a local image, for machines without a
registry), so the build never pulls. The image is tagged by content (``nightshift-harbor/<task>:
<hash>``) and reused when that tag exists. A verifier layer on top adds, when the tests need them,
the apt packages, uv and wheelhouse their scripts would have fetched (suites/harbor/verifier.py).
The case pins the final image id; its starting workspace is the image's WORKDIR, copied out.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import docker

from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.standin_build import LABEL as STANDIN_LABEL
from nightshift.sandbox.standin_build import build_standin
from nightshift.sandbox.standins import find_standin, known_names
from nightshift.suites.harbor.task import HarborTask, TaskRefused
from nightshift.suites.harbor.toolchain import fetch_uv, fetch_wheels, wheel_names
from nightshift.suites.harbor.verifier import TOOLCHAIN, VerifierNeeds
from nightshift.suites.loader import tree_hash

_FROM = re.compile(r"^(\s*FROM\s+)((?:--\S+\s+)*)(\S+)(.*)$", re.IGNORECASE | re.MULTILINE)
_COPY_FROM = re.compile(r"^(\s*COPY\s+(?:--\S+\s+)*?--from=)(\S+)", re.IGNORECASE | re.MULTILINE)
PROVIDE = ("`docker pull {name}` where a registry is reachable, `docker load -i FILE` with a saved image, or map "
           "it to a local image in the suite's base-image map (import-suite --map-image '{name}=LOCAL'); "
           "stand-ins nightshift builds itself: " + ", ".join(known_names()))


@dataclass
class BuiltEnvironment:
    """The task's image as built, and what the case must know about it."""

    task_image: str  # id of the image the Dockerfile made
    image: str  # id the case runs: the task image, or its verifier layer
    workdir: str
    user: str
    python: str | None  # '3.11' when the image has python3
    bases: dict[str, str] = field(default_factory=dict)  # FROM name -> image id it was built on
    standins: dict[str, dict] = field(default_factory=dict)  # FROM/COPY --from name -> the stand-in used
    wheels: list[str] = field(default_factory=list)
    uv_version: str | None = None
    apt_packages: list[str] = field(default_factory=list)


def docker_client():
    return docker_engine("Harbor task environments are built with docker", "start dockerd on the importing machine",
                         error=TaskRefused)


def _local_id(client, name: str) -> str | None:
    try:
        return client.images.get(name).id
    except docker.errors.ImageNotFound:
        return None
    except docker.errors.APIError:
        return None


def _standin(client, name: str, where: Path) -> str | None:
    """The current stand-in for a registry name nightshift knows (built now when missing or out of date, a
    no-op when its recipe is unchanged); None for other names and where a real image holds the name."""
    if find_standin(name) is None:
        return None
    held = _local_id(client, name)
    if held is not None and STANDIN_LABEL not in (client.images.get(held).labels or {}):
        return held  # a real image of that name (pulled or loaded) beats any stand-in
    try:
        return _built_standin(name)
    except (RuntimeError, ValueError) as exc:
        raise TaskRefused(f"{where}: {name} needs its stand-in image, and building it failed: {exc}. Fix: run "
                          f"nightshift build-image --as {name} and read its output") from exc


@functools.cache
def _built_standin(name: str) -> str:
    return build_standin(name).image_id  # once per import process: every task of a suite shares it


def _standin_record(client, image_id: str) -> dict | None:
    labels = client.images.get(image_id).labels or {}
    if STANDIN_LABEL not in labels:
        return None
    differs = [d for d in labels.get("org.nightshift.standin-differs", "").split(" | ") if d]
    return {"standin": labels[STANDIN_LABEL], "image": image_id, "differs": differs}


def resolve_bases(client, dockerfile: Path, base_images: dict[str, str],
                  standins: dict[str, dict] | None = None) -> tuple[str, dict[str, str]]:
    """The Dockerfile with every external FROM and COPY --from replaced by a local image id, and that map.

    A name missing here is looked up in the suite's base-image map, then among nightshift's stand-ins (built on
    first use); ``standins`` collects which stand-in each name used, with what it does differently."""
    text = dockerfile.read_text()
    stages = {m[1].lower() for m in re.finditer(r"^\s*FROM\s+.*?\s+AS\s+(\S+)\s*$", text, re.I | re.M)}
    bases: dict[str, str] = {}

    def local_image(name: str, how: str) -> str:
        if "$" in name:
            raise TaskRefused(f"{dockerfile}: {how}{name} uses a build argument; nightshift cannot know the image. "
                              f"Fix: write the image name in the Dockerfile")
        local = base_images.get(name, name)
        found = _standin(client, local, dockerfile) or _local_id(client, local)  # a map may name a stand-in too
        if found is None:
            mapped = f" (mapped to {local}, which is not on this engine either)" if local != name else ""
            raise TaskRefused(f"{dockerfile}: {how}{name}: the image is not on this docker engine{mapped}, and "
                              f"nightshift never pulls at build time. Fix: {PROVIDE.format(name=name)}")
        if standins is not None and (record := _standin_record(client, found)) is not None:
            standins[name] = record
        bases[name] = found
        return found

    def replace_from(match: re.Match[str]) -> str:
        name, tail = match[3], match[4]
        if name.lower() in stages or name.lower() == "scratch":
            return match[0]
        found = local_image(name, "FROM ")
        # the registry images a mapped base stands in for build as root; ours defaults to uid 65534
        as_root = "\nUSER 0:0" if base_images.get(name, name) != name else ""
        return f"{match[1]}{match[2]}{found}{tail}{as_root}"

    def replace_copy_from(match: re.Match[str]) -> str:
        name = match[2]
        if name.lower() in stages or name.isdigit():
            return match[0]
        return f"{match[1]}{local_image(name, 'COPY --from=')}"

    return _COPY_FROM.sub(replace_copy_from, _FROM.sub(replace_from, text)), bases


def _build(client, context: Path, dockerfile_text: str, tag: str, timeout_s: float, where: str) -> str:
    if (existing := _local_id(client, tag)) is not None:
        return existing
    with tempfile.TemporaryDirectory(prefix="nightshift-dockerfile-") as tmp:
        path = Path(tmp) / "Dockerfile"
        path.write_text(dockerfile_text)
        try:
            image, _ = client.images.build(path=str(context), dockerfile=str(path), tag=tag, rm=True, forcerm=True,
                                           pull=False, timeout=int(timeout_s), labels={"org.nightshift.harbor": tag})
        except docker.errors.BuildError as exc:
            log = "".join(str(chunk.get("stream", "")) for chunk in exc.build_log if isinstance(chunk, dict))
            tail = "\n    ".join(log.strip().splitlines()[-12:])
            raise TaskRefused(f"{where}: docker build failed: {exc.msg}\n    {tail}\nFix: make the Dockerfile build "
                              f"offline from local images (docker build {context})") from exc
        except docker.errors.APIError as exc:
            raise TaskRefused(f"{where}: docker build failed: {exc.explanation}") from exc
    return image.id


def _python_version(client, image: str) -> str | None:
    try:
        out = client.containers.run(image, ["python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                    remove=True, network_mode="none", user="65534:65534", entrypoint=[])
    except (docker.errors.ContainerError, docker.errors.APIError):
        return None
    return out.decode().strip() or None


def _verifier_layer(client, task: HarborTask, image: str, needs: VerifierNeeds, python: str | None,
                    built: BuiltEnvironment) -> str:
    where = f"{task.folder}: verifier tooling"
    with tempfile.TemporaryDirectory(prefix="nightshift-verifier-") as tmp:
        root = Path(tmp)
        lines = [f"FROM {image}", "USER 0:0"]
        if needs.apt_packages:
            packages = " ".join(needs.apt_packages)
            lines.append(f"RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "
                         f"--no-install-recommends {packages} && rm -rf /var/lib/apt/lists/*")
            built.apt_packages = list(needs.apt_packages)
        if needs.uses_uv:
            if python is None:
                raise TaskRefused(f"{where}: the tests run uv, and the image has no python3 for uv to use offline "
                                  f"(nightshift never downloads a Python at verify time). Fix: install python3 in "
                                  f"the Dockerfile")
            version = needs.uv_version or "0.7.13"
            uv = fetch_uv(version, f"{where}: uv {version}")
            (root / "toolchain" / "bin").mkdir(parents=True)
            for binary in uv.iterdir():
                (root / "toolchain" / "bin" / binary.name).write_bytes(binary.read_bytes())
                (root / "toolchain" / "bin" / binary.name).chmod(0o755)
            wheels = root / "toolchain" / "wheels"
            wheels.mkdir()
            if needs.requirements:
                house = fetch_wheels(needs.requirements, python, f"{where}: {' '.join(needs.requirements)}")
                for wheel in house.glob("*.whl"):
                    (wheels / wheel.name).write_bytes(wheel.read_bytes())
                built.wheels = wheel_names(house)
            built.uv_version = version
            lines.append(f"COPY toolchain/ {TOOLCHAIN}/")
        text = "\n".join(lines) + "\n"
        key = hashlib.sha256((text + tree_hash(root)).encode()).hexdigest()[:16]
        return _build(client, root, text, f"nightshift-harbor/{task.id}-verifier:{key}", task.build_timeout_s, where)


def build_environment(task: HarborTask, needs: VerifierNeeds, base_images: dict[str, str]) -> BuiltEnvironment:
    """Build (or reuse) the task image and its verifier layer; refusals name the file and the fix."""
    client = docker_client()
    if task.dockerfile is not None:
        standins: dict[str, dict] = {}
        text, bases = resolve_bases(client, task.dockerfile, base_images, standins)
        key = hashlib.sha256((text + tree_hash(task.context)).encode()).hexdigest()[:16]
        where = str(task.dockerfile)
        task_image = _build(client, task.context, text, f"nightshift-harbor/{task.id}:{key}", task.build_timeout_s,
                            where)
    else:
        name = str(task.docker_image)
        standins = {}
        local = base_images.get(name, name)
        found = _standin(client, local, task.meta_file) or _local_id(client, local)
        if found is not None and (record := _standin_record(client, found)) is not None:
            standins[name] = record
        if found is None:
            raise TaskRefused(f"{task.meta_file} [environment] field 'docker_image' = {name!r}: not on this docker "
                              f"engine. Fix: {PROVIDE.format(name=name)}")
        task_image, bases = found, {name: found}
    config = client.images.get(task_image).attrs.get("Config") or {}
    workdir = (config.get("WorkingDir") or "").rstrip("/") or "/app"
    python = _python_version(client, task_image)
    built = BuiltEnvironment(task_image=task_image, image=task_image, workdir=workdir,
                             user=str(config.get("User") or "root"), python=python, bases=bases, standins=standins)
    if needs.needs_layer:
        built.image = _verifier_layer(client, task, task_image, needs, python, built)
    return built


def extract_workdir(image: str, workdir: str, into: Path) -> None:
    """Copy the image's WORKDIR (what COPY and RUN put there) into ``into``: the starting workspace."""

    client = docker_client()
    into.mkdir(parents=True, exist_ok=True)
    container = client.containers.create(image, command=["true"], entrypoint=[], network_mode="none")
    try:
        stream, _ = container.get_archive(workdir)
        data = io.BytesIO(b"".join(stream))
    except docker.errors.NotFound:
        return  # the image has no such folder yet: the workspace starts empty
    finally:
        container.remove(force=True)
    with tarfile.open(fileobj=data) as archive:
        members = []
        for member in archive.getmembers():
            parts = Path(member.name).parts[1:]  # the archive's first part is the folder itself
            if not parts or member.isdev():
                continue
            member.name = str(Path(*parts))
            members.append(member)
        archive.extractall(into, members=members, filter=_safe_member)


def _safe_member(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tarfile's 'data' rules, but a member they refuse (a link leading outside) is left out, not fatal."""
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None


def sidecar_image(task: HarborTask, base_images: dict[str, str], name: str, context: Path | None, ref: str) -> str:
    """The image id of one compose service: ``ref`` is its Dockerfile (built like the task's, FROM mapped)
    or, without a build ``context``, an image that must be on the engine (or mapped)."""
    client = docker_client()
    where = f"{task.compose} services.{name}"
    if context is None:
        found = _local_id(client, base_images.get(ref, ref))
        if found is None:
            raise TaskRefused(f"{where} field 'image' = {ref!r}: not on this docker engine, and nightshift never "
                              f"pulls. Fix: {PROVIDE.format(name=ref)}")
        return found
    dockerfile = Path(ref)
    if not dockerfile.is_file():
        raise TaskRefused(f"{where} field 'build': {dockerfile} does not exist; fix the build context or dockerfile")
    text, _ = resolve_bases(client, dockerfile, base_images)
    key = hashlib.sha256((text + tree_hash(context)).encode()).hexdigest()[:16]
    return _build(client, context, text, f"nightshift-harbor/{task.id}-{name}:{key}", task.build_timeout_s, where)
