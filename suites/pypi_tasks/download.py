"""Import-time downloads for repository tasks: a project's sdist and the wheels of what its tests need.

Everything lands in one cache folder per machine ($NIGHTSHIFT_PYPI_CACHE, else ``pypi/`` beside the
image cache), keyed by ``name==version``, so a second import downloads nothing. Nothing here runs at
trial time: the sandbox installs only from this wheelhouse, with ``--no-index``.
"""

from __future__ import annotations

import configparser
import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.version import InvalidVersion, Version

from nightshift.errors import SuiteError
from nightshift.sandbox.images import image_cache

PAIR = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<old>[A-Za-z0-9.+!_-]+)\.\.(?P<new>[A-Za-z0-9.+!_-]+)$")
SPEC = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[A-Za-z0-9.+!_-]+)$")
TEST_EXTRAS = ("test", "tests", "testing")
DOWNLOAD_TIMEOUT_S = 300
FORMAT = 3  # bump when what is downloaded for a spec changes: cached downloads of another format are redone
# (3: egg-info, development and tox requirements are read). Formats after 2 live in folders of their own, so
# checkouts of different formats sharing one cache do not redo each other's downloads in turn.


class Refused(Exception):
    """A project that cannot become repository tasks here; the message is the reason, said once."""


@dataclass(frozen=True)
class Project:
    name: str
    version: str
    source: Path  # the unpacked sdist (read-only use: copies are made from it)
    wheelhouse: Path  # wheels of pytest, the test and runtime dependencies and the build backend
    test_requirements: list[str]
    build_requirements: list[str]

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.version}"


def pypi_cache() -> Path:
    return Path(os.environ.get("NIGHTSHIFT_PYPI_CACHE", image_cache().parent / "pypi"))


def read_specs(items: list[str]) -> list[str]:
    """``name==version`` items; an item that is a file holds one per line (``#`` comments allowed)."""
    specs: list[str] = []
    for item in items:
        path = Path(item)
        if "==" not in item and path.is_file():
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                line = line.split("#", 1)[0].strip()
                if line:
                    specs.append(_checked(line, f"{path}:{number}"))
        else:
            specs.append(_checked(item, "import-suite pypi"))
    if not specs:
        raise SuiteError("import-suite pypi: name at least one package as NAME==VERSION (or a file listing them)")
    return specs


def _checked(spec: str, where: str) -> str:
    if ".." in spec:  # a release pair, NAME==OLD..NEW: both versions read, OLD before NEW
        try:
            pair_versions(spec, where)
        except Refused as exc:
            raise SuiteError(str(exc)) from None
        return spec
    if not SPEC.match(spec):
        raise SuiteError(f"{where}: {spec!r} is not NAME==VERSION (e.g. more-itertools==10.2.0); pin an exact "
                         f"version so the tasks are reproducible")
    return spec


def pair_versions(spec: str, where: str) -> tuple[str, str, str]:
    """(name, old, new) of ``NAME==OLD..NEW``; Refused when it is not one or OLD does not come first."""
    found = PAIR.match(spec)
    if not found:
        raise Refused(f"{where}: {spec!r} is not NAME==OLD..NEW (e.g. toolz==0.12.0..0.12.1)")
    old, new = found["old"], found["new"]
    try:
        if Version(old) >= Version(new):
            raise Refused(f"{where}: {spec!r}: the older release {old} must come before {new}")
    except InvalidVersion as exc:
        raise Refused(f"{where}: {spec!r}: {exc}") from None
    return found["name"], old, new


def _pip(args: list[str], where: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", *args]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise Refused(f"pip download of {where} took over {DOWNLOAD_TIMEOUT_S} s") from None
    if proc.returncode != 0:
        last = [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()][-3:]
        raise Refused(f"pip could not download {where}: {' | '.join(last)[:400]}")


def _unpack(archive: Path, into: Path) -> Path:
    """The sdist's top folder, unpacked without following links or leaving the target."""
    into.mkdir(parents=True, exist_ok=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zipped:
            zipped.extractall(into)
    else:
        with tarfile.open(archive) as tarred:
            tarred.extractall(into, filter="data")
    tops = [p for p in into.iterdir() if p.is_dir()]
    if len(tops) != 1:
        raise Refused(f"its sdist {archive.name} does not unpack to one folder")
    return tops[0]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _metadata_requirements(source: Path, project: str) -> tuple[list[str], list[str]]:
    """(runtime requirements, test-extra requirements) from PKG-INFO, markers evaluated for the image's Python.

    An extra that names the project itself (attrs' ``tests`` is ``attrs[tests-no-zope]``) is followed to its
    extras, never downloaded: a wheel of the project would put a copy of the answer in site-packages."""
    info = source / "PKG-INFO"
    if not info.is_file():
        return [], []
    headers = HeaderParser().parsestr(info.read_text(errors="replace"))
    reqs = []
    for raw in headers.get_all("Requires-Dist") or []:
        with contextlib.suppress(InvalidRequirement):
            reqs.append(Requirement(raw))
    extras, runtime, tests = set(TEST_EXTRAS), [], []
    grew = True
    while grew:  # the extras the test extras reach through self-references
        grew = False
        for req in reqs:
            if (_canonical(req.name) == _canonical(project) and req.marker is not None
                    and any(req.marker.evaluate({"extra": e}) for e in extras) and not req.extras <= extras):
                extras |= req.extras
                grew = True
    for req in reqs:
        if _canonical(req.name) == _canonical(project):
            continue
        plain = str(req).split(";", 1)[0].strip()
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            runtime.append(plain)
        elif any(req.marker.evaluate({"extra": extra}) for extra in extras):
            tests.append(plain)
    return runtime, tests


TEST_REQUIREMENT_FILES = ("requirements-test.txt", "requirements-tests.txt", "test-requirements.txt",
                          "requirements/test.txt", "requirements/tests.txt", "requirements/testing.txt",
                          "tests/requirements.txt")
# read only when no test file exists: a project such as python-dateutil lists its test tools (freezegun,
# hypothesis, pytest-cov for its addopts) only among its development requirements
DEV_REQUIREMENT_FILES = ("requirements-dev.txt", "dev-requirements.txt", "requirements/dev.txt")


def egg_info_requirements(source: Path) -> tuple[list[str], list[str]]:
    """(runtime, test-extra) requirements from ``*.egg-info/requires.txt``: older setuptools sdists (isodate
    0.6.1) write their install_requires there and leave PKG-INFO without Requires-Dist."""
    runtime: list[str] = []
    tests: list[str] = []
    for path in sorted(source.glob("*.egg-info/requires.txt")) + sorted(source.glob("src/*.egg-info/requires.txt")):
        section: str | None = None
        for line in path.read_text(errors="replace").splitlines():
            line = line.strip()
            if line.startswith("[") and line.endswith("]"):
                section = line[1:-1]
                continue
            if not line:
                continue
            extra, _, marker = (section or "").partition(":")
            if extra and extra not in TEST_EXTRAS:
                continue
            requirement = f"{line}; {marker}" if marker else line
            with contextlib.suppress(InvalidRequirement):
                req = Requirement(requirement)
                if req.marker is None or req.marker.evaluate():
                    (tests if extra else runtime).append(str(req).split(";", 1)[0].strip())
        break  # one egg-info is the project's
    return runtime, tests


def _requirement_files(source: Path) -> list[str]:
    """Lines of the test requirement files projects commonly ship (no includes, no options, no URLs)."""
    names = [n for n in TEST_REQUIREMENT_FILES if (source / n).is_file()] or list(DEV_REQUIREMENT_FILES)
    found = []
    for name in names:
        path = source / name
        if path.is_file():
            for line in path.read_text(errors="replace").splitlines():
                line = line.split("#", 1)[0].strip()
                if line and not line.startswith("-") and "://" not in line:
                    found.append(line)
    return found or tox_deps(source)


def tox_deps(source: Path) -> list[str]:
    """``[testenv] deps`` of tox.ini, the last place a project names its test tools (natsort: hypothesis,
    pytest-mock); factor-conditional lines (``py38: x``), includes and substitutions are left out."""
    path = source / "tox.ini"
    if not path.is_file():
        return []
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(path.read_text(errors="replace"))
    except configparser.Error:
        return []
    found = []
    for line in parser.get("testenv", "deps", fallback="").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-") and "{" not in line and "://" not in line:
            with contextlib.suppress(InvalidRequirement):
                found.append(str(Requirement(line)))  # "py38: x" is not a requirement
    return found


def build_requirements(source: Path) -> list[str]:
    pyproject = source / "pyproject.toml"
    if pyproject.is_file():
        try:
            requires = tomllib.loads(pyproject.read_text()).get("build-system", {}).get("requires")
        except tomllib.TOMLDecodeError as exc:
            raise Refused(f"its pyproject.toml is not valid TOML ({exc})") from None
        if requires:  # + what PEP 660 editable builds ask for beyond them (hatchling: editables)
            return [*(str(r) for r in requires), "editables", "wheel"]
    return ["setuptools", "wheel"]


def fetch_project(spec: str) -> Project:
    """Download (once per machine) and unpack ``spec``; Refused when PyPI has no sdist or a wheel is missing."""
    name, _, version = spec.partition("==")
    folder = pypi_cache() / (spec.lower() if FORMAT <= 2 else f"{spec.lower()}@{FORMAT}")
    folder.parent.mkdir(parents=True, exist_ok=True)
    # two imports of one spec at once (two suites built side by side) must not unpack over each other
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _download(spec, name, folder)
    tree = folder / "tree"
    source = next(p for p in tree.iterdir() if p.is_dir())
    tests = [line for line in (folder / "requirements.txt").read_text().splitlines() if line.strip()]
    return Project(name=name, version=version, source=source, wheelhouse=folder / "wheels", test_requirements=tests,
                   build_requirements=build_requirements(source))


def _download(spec: str, name: str, folder: Path) -> None:
    done = folder / ".complete"
    sdists, wheels, tree = folder / "sdist", folder / "wheels", folder / "tree"
    if not (done.is_file() and done.read_text() == f"{FORMAT} {spec}\n"):
        shutil.rmtree(folder, ignore_errors=True)
        sdists.mkdir(parents=True)
        _pip(["download", "--no-binary", ":all:", "--no-deps", "-d", str(sdists), spec],
             f"the sdist of {spec}")
        archives = sorted(sdists.iterdir())
        if len(archives) != 1:
            raise Refused(f"PyPI gave {len(archives)} files for the sdist of {spec}")
        source = _unpack(archives[0], tree)
        runtime, tests = _metadata_requirements(source, name)
        if not runtime and not tests:
            runtime, tests = egg_info_requirements(source)
        needed = ["pytest", *runtime, *tests, *_requirement_files(source), *build_requirements(source)]
        # wheels only: the sandbox has no compiler, and nothing may build from source there
        _pip(["download", "--only-binary", ":all:", "-d", str(wheels), *needed],
             f"wheels of the test dependencies of {spec} ({', '.join(needed)})")
        (folder / "requirements.txt").write_text("\n".join([*runtime, *tests, *_requirement_files(source)]) + "\n")
        done.write_text(f"{FORMAT} {spec}\n")
