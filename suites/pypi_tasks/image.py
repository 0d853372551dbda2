"""One docker image per project: a Python base, the project's test dependencies from the local wheelhouse,
and the project installed in development mode from /workspace (so edits there are what the tests import).

Two content-keyed layers, each built once per machine and pinned by image id:

* the Python base: the sandbox base image plus Debian's python3-venv and a venv at /opt/venv (apt runs
  with network, at import time only). ``PYTHON_BASE_COMMANDS`` is the one place a stand-in base image
  (e.g. a local ``python:3.12-slim``) would replace it.
* the project image: ``pip install --no-index --find-links`` from the wheelhouse, then ``pip install -e``
  of a copy of the sdist at /workspace, then /workspace, caches and temporary files removed, so the image
  holds no copy of the original source (``leaked_files`` checks that, file by file). The toolchain goes too
  (pip, setuptools and wheel out of the venv, Debian's wheels root-only): each vendors copies of popular
  packages (setuptools: more_itertools; pip: six, idna), and trials never run as root, so what they cannot
  read cannot leak (``copies_by_name`` checks that, as the trial's user, by importable name).
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from docker.types import Mount

from nightshift.sandbox.committed_image import CommandFailed, commit_image
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.docker_exec import TRIAL_USER, run_in_image
from nightshift.sandbox.images import latest_build
from nightshift.suites.pypi_tasks.download import Project, Refused

FORMAT = 2  # bump when what the commands below put in an image changes
REPOSITORY = "nightshift/pypi"
LABEL = "org.nightshift.pypi"
TOOLCHAIN = ("setuptools", "wheel", "pip")  # pip last: it uninstalls the others
SYSTEM_WHEELS = "/usr/share/python-wheels"  # Debian's ensurepip: root-only, so a root recipe can still make venvs
VENV = "/opt/venv"
PYTHON = f"{VENV}/bin/python"
BUILD_ENV = {"PIP_NO_CACHE_DIR": "1", "PYTHONDONTWRITEBYTECODE": "1"}  # over committed_image.BUILD_ENV
PYTHON_BASE_COMMANDS = [
    "apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv patch >/dev/null",
    "rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin",
    f"python3 -m venv {VENV}",
]
RUNTIME_CHANGES = [f"ENV PATH={VENV}/bin:/usr/local/bin:/usr/bin:/bin", "ENV PYTHONDONTWRITEBYTECODE=1",
                   "ENV LANG=C.UTF-8", "ENV HOME=/tmp", "USER 65534:65534", "WORKDIR /workspace",
                   'CMD ["sleep", "infinity"]']


def client():
    return docker_engine("repository tasks are built as docker images", "start dockerd on the importing machine",
                         error=Refused)


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps([FORMAT, *parts], sort_keys=True).encode()).hexdigest()[:16]


def _commit(api_client, base_id: str, commands: list[str], key: str, mounts: list[Mount], what: str) -> str:
    """``REPOSITORY:key``: ``commands`` run as root in a container of ``base_id``, committed; reused by key."""
    try:
        image, _, _ = commit_image(api_client, base_id, commands, key=key, repository=REPOSITORY, label=LABEL,
                                   changes=RUNTIME_CHANGES, mounts=mounts, env=BUILD_ENV)
    except CommandFailed as failed:
        tail = " | ".join(failed.output.splitlines()[-4:])[:500]
        raise Refused(f"{what}: `{failed.command[:160]}` exited {failed.code}: {tail}") from None
    return image


def python_base(api_client) -> str:
    """The id of the Python base (sandbox base image + venv), built on first use."""
    built = latest_build()
    if built is None or not built.image_id:
        raise Refused("no sandbox base image here; run `nightshift build-image` first")
    return _commit(api_client, built.image_id, PYTHON_BASE_COMMANDS, _key("base", built.image_id, PYTHON_BASE_COMMANDS),
                   [], "the Python base image")


def project_image(api_client, project: Project) -> str:
    """The pinned id of ``project``'s image; Refused (with pip's words) when its dependencies do not install."""
    base = python_base(api_client)
    wheels = sorted(p.name for p in project.wheelhouse.iterdir())
    pip = f"{PYTHON} -m pip install -q --no-index --find-links /import/wheels"
    # shlex: a requirement's marker has quotes of its own (setuptools; python_version != '3.3')
    reqs = " ".join(shlex.quote(r) for r in ["pytest", *project.test_requirements, *project.build_requirements])
    commands = [
        f"{pip} {reqs}",
        "rm -rf /workspace && cp -a /import/src /workspace && chown -R 65534:65534 /workspace",
        f"cd /workspace && {pip} --no-build-isolation --no-deps -e .",
        # nothing of the original may stay behind: the tree, build leftovers, caches (docs/SUITES.md)
        "rm -rf /workspace /tmp/* /root/.cache && mkdir -m 0777 /workspace",
        *_toolchain_removal(project),
    ]
    mounts = [Mount("/import/wheels", str(project.wheelhouse), type="bind", read_only=True),
              Mount("/import/src", str(project.source), type="bind", read_only=True)]
    key = _key("project", base, project.spec, wheels, commands)
    return _commit(api_client, base, commands, key, mounts, f"installing {project.spec} offline")


def _requirement_name(requirement: str) -> str:
    return re.split(r"[^A-Za-z0-9._-]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _toolchain_removal(project: Project) -> list[str]:
    """Commands that take the packaging toolchain out of reach of a trial, keeping what the tests require."""
    required = {_requirement_name(r) for r in project.test_requirements}
    drop = [t for t in TOOLCHAIN if t not in required]
    commands = [f"{PYTHON} -m pip uninstall -y -q {name}" for name in drop]
    return [*commands, f"if [ -d {SYSTEM_WHEELS} ]; then chmod 0700 {SYSTEM_WHEELS}; fi"]


# A copy has the original's size: only files of a wanted size are read and hashed (most of /usr is not).
# Wheels, eggs and zips are looked into too: /usr/share/python-wheels holds setuptools and pip wheels whose
# vendored packages (more_itertools, six, packaging ...) an agent could unzip.
_SCAN = """import hashlib, os, zipfile
wanted = set(WANTED)
sizes = set(SIZES)
for top in ("/opt", "/usr", "/root", "/tmp", "/var", "/home", "/srv", "/etc", "/workspace"):
    for root, dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            try:
                if os.path.islink(path):
                    continue
                if name.endswith((".whl", ".zip", ".egg", ".pyz")) and zipfile.is_zipfile(path):
                    with zipfile.ZipFile(path) as archive:
                        for member in archive.infolist():
                            if member.file_size in sizes and hashlib.sha256(
                                    archive.read(member)).hexdigest() in wanted:
                                print(path + "!" + member.filename)
                    continue
                if os.path.getsize(path) not in sizes:
                    continue
                with open(path, "rb") as handle:
                    if hashlib.sha256(handle.read()).hexdigest() in wanted:
                        print(path)
            except (OSError, zipfile.BadZipFile, RuntimeError):
                pass
"""


def leaked_files(api_client, image_id: str, originals: list[Path]) -> list[str]:
    """Paths in the image whose bytes equal one of ``originals`` (the source files a task's gold patch restores)."""
    kept = [p for p in originals if p.stat().st_size > 64]
    digests = {hashlib.sha256(p.read_bytes()).hexdigest() for p in kept}
    if not digests:
        return []
    sizes = sorted({p.stat().st_size for p in kept})
    script = _SCAN.replace("WANTED", repr(sorted(digests))).replace("SIZES", repr(sizes))
    return _scan(api_client, image_id, script)


# A vendored copy (pip/_vendor/six.py, setuptools/_vendor/more_itertools/) is another version: its bytes
# differ, its name does not. A package folder of one of the project's import names (it has __init__.py) is a
# copy; a module file of that name is one only when it defines most of the original's top-level names (a
# file called jmespath.py inside pygments' lexers is not jmespath). On disk or inside a readable archive,
# outside /workspace. Run as the trial's user: what it cannot read is hidden.
_NAME_SCAN = """import ast, os, zipfile
packages = set(PACKAGES)
modules = MODULES
def defined(text):
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    return {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
def module_copy(name, read):
    want = set(modules.get(name[:-3], ())) if name.endswith(".py") else set()
    return bool(want) and len(defined(read()) & want) * 2 >= len(want)
def package_copy(parts):
    return any(p in packages and parts[i + 1:] and parts[-1] in ("__init__.py", "__init__.pyc")
               for i, p in enumerate(parts))
for top in ("/opt", "/usr", "/root", "/tmp", "/var", "/home", "/srv", "/etc"):
    for root, dirs, files in os.walk(top):  # a folder this user cannot read is not walked
        for name in files:
            path = os.path.join(root, name)
            try:
                if name in ("__init__.py", "__init__.pyc") and os.path.basename(root) in packages:
                    if os.access(path, os.R_OK):
                        print(root + "/")
                elif name[:-3] in modules and name.endswith(".py") and os.access(path, os.R_OK):
                    if module_copy(name, lambda: open(path, "rb").read()):
                        print(path)
                elif name.endswith((".whl", ".zip", ".egg", ".pyz")) and zipfile.is_zipfile(path):
                    with zipfile.ZipFile(path) as archive:
                        for member in archive.namelist():
                            parts = member.split("/")
                            if package_copy(parts) or (parts[-1][:-3] in modules and module_copy(
                                    parts[-1], lambda: archive.read(member))):
                                print(path + "!" + member)
                                break
            except (OSError, zipfile.BadZipFile, RuntimeError):
                pass
"""


@dataclass(frozen=True)
class ImportNames:
    packages: list[str]  # top-level package folders (with __init__.py)
    modules: dict[str, list[str]]  # top-level single modules -> the functions and classes they define


def import_names(source: Path, files: list[Path]) -> ImportNames:
    """The top-level import names of ``files`` under ``source`` (``src/`` layouts too): what a copy is named.
    A folder counts only as a package (a root ``bin/`` or ``scripts/`` folder is not imported by that name)."""
    packages, modules = set(), {}
    for path in files:
        if not path.is_relative_to(source):
            continue
        rel = path.relative_to(source).parts
        base, parts = (source / "src", rel[1:]) if rel[0] == "src" and len(rel) > 1 else (source, rel)
        if len(parts) > 1 and parts[0].isidentifier() and (base / parts[0] / "__init__.py").is_file():
            packages.add(parts[0])
        elif len(parts) == 1 and parts[0].removesuffix(".py").isidentifier():
            tree = ast.parse(path.read_bytes())
            modules[parts[0].removesuffix(".py")] = sorted(
                n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
    return ImportNames(sorted(packages), {k: v for k, v in sorted(modules.items()) if v})


def copies_by_name(api_client, image_id: str, names: ImportNames, user: str = TRIAL_USER) -> list[str]:
    """Copies of the project's packages or modules that ``user`` (a trial) could read in the image."""
    if not names.packages and not names.modules:
        return []
    script = _NAME_SCAN.replace("PACKAGES", repr(names.packages)).replace("MODULES", repr(names.modules))
    return _scan(api_client, image_id, script, user)


def _scan(api_client, image_id: str, script: str, user: str = TRIAL_USER) -> list[str]:
    code, output = run_in_image(api_client, image_id, ["python3", "-c", script], user, name="nsb-pypi-scan")
    if code != 0:
        raise Refused(f"the leak scan of image {image_id[:19]} failed ({code}): {output[-300:]}")
    return [line for line in output.splitlines() if line.startswith("/")]


def clean_project_image(api_client, project: Project, originals: list[Path]) -> str:
    """The project's image id, refused (``Refused``) when it holds a copy of one of ``originals``: a task built on
    it could not hide its answer."""
    image_id = project_image(api_client, project)
    leaks = leaked_files(api_client, image_id, originals)
    if leaks:
        raise Refused(f"its image holds copies of its source ({', '.join(leaks[:3])}); it cannot hide the answer")
    copies = copies_by_name(api_client, image_id, import_names(project.source, originals))
    if copies:
        raise Refused(f"its image holds another copy of its package, readable by a trial ({', '.join(copies[:3])}); "
                      f"it cannot hide the answer")
    return image_id
