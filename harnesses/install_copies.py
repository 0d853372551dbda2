"""What an installed agent brings into a task image that a trial could copy the answer from.

A repository task's image holds no copy of its package (suites/pypi_tasks/image.py scans it), but an agent's
install (harnesses/derived_image.py) adds a venv of its own dependencies on top: mini-swe-agent brings jinja2, and
every venv made with Debian's Python 3.11 brings setuptools, which vendors more_itertools. Once per derived image
(its content key; scanned again when the image id under that key changes) the image is scanned **as the trial's
user** for importable top-level names (what a ``site-packages``/``dist-packages`` folder, a folder of
``*.dist-info`` entries or a ``_vendor``-style folder inside a package holds, and the same inside readable
``.whl``/``.zip``/``.egg``/``.pyz`` archives), minus what the base image already had at the same path; the record
sits beside the image in the image cache (``derived/<key>/install-names.json``).

``agent_copies`` then matches the record against each case's import names (case.toml ``[source]``: ``file``'s top
folder or module, and ``package``): the flow warns once per agent, writes ``agent-copies.json`` into the run folder
and hands each trial its copies, which the ``answer_in_agent_install`` scanner flags. ``nightshift check`` reads
the records only (it builds and runs nothing): an image not scanned yet is said so.
"""

from __future__ import annotations

import functools
import json
import logging
import subprocess
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

import docker

from nightshift.atomic_files import atomic_write_text
from nightshift.errors import HarnessError
from nightshift.harnesses.derived_image import DerivedImage, content_key
from nightshift.models import Case
from nightshift.sandbox.docker_engine import docker_engine
from nightshift.sandbox.docker_exec import TRIAL_USER, run_in_image
from nightshift.sandbox.images import image_cache

FORMAT = 1  # bump when the scan below finds other things: every record is then made again
RECORD = "install-names.json"
RUN_FILE = "agent-copies.json"  # in a run folder: variant -> case id -> copies, read again by `nightshift scan`
NO_PYTHON = 99
log = logging.getLogger("nightshift.harnesses")

# Run as the trial's user: a folder it cannot read is not walked, a file it cannot read is not counted.
_SCAN = r"""import json, os, zipfile
VENDOR = {"_vendor", "vendor", "_vendored", "vendored", "extern", "_extern", "third_party", "_third_party"}
CODE = (".py", ".pyc", ".so")
found = {}
def add(name, path):
    if name.isidentifier() and name != "__init__":
        found.setdefault(name, []).append(path)
def has_code(folder):
    for root, dirs, files in os.walk(folder):
        if any(f.endswith(CODE) and os.access(os.path.join(root, f), os.R_OK) for f in files):
            return True
    return False
def names_in(folder):
    for entry in os.scandir(folder):
        if entry.is_symlink() or entry.name == "__pycache__":
            continue
        if entry.is_dir():
            if entry.name.isidentifier() and has_code(entry.path):
                add(entry.name, entry.path)
        elif entry.name.endswith(CODE) and os.access(entry.path, os.R_OK):
            add(entry.name.split(".")[0], entry.path)
def archive(path):
    with zipfile.ZipFile(path) as opened:
        seen = set()
        for member in opened.namelist():
            if not member.endswith(CODE):
                continue
            parts = member.split("/")
            for i, part in enumerate(parts):
                if i == 0 or parts[i - 1] in VENDOR:
                    key = "/".join(parts[:i + 1])
                    if key not in seen:
                        seen.add(key)
                        add(part.split(".")[0] if i == len(parts) - 1 else part, path + "!" + key)
for top in ("/opt", "/usr", "/root", "/tmp", "/var", "/home", "/srv", "/etc"):
    for root, dirs, files in os.walk(top):
        here = os.path.basename(root)
        try:
            if (here in ("site-packages", "dist-packages") or any(n.endswith((".dist-info", ".egg-info")) for n in dirs)
                    or here in VENDOR and os.path.isfile(os.path.join(os.path.dirname(root), "__init__.py"))):
                names_in(root)
        except OSError:
            pass
        for name in files:
            if name.endswith((".whl", ".zip", ".egg", ".pyz")):
                try:
                    if os.access(os.path.join(root, name), os.R_OK) and zipfile.is_zipfile(os.path.join(root, name)):
                        archive(os.path.join(root, name))
                except (OSError, zipfile.BadZipFile, RuntimeError):
                    pass
print(json.dumps(found, sort_keys=True))
"""


class ScanError(HarnessError, RuntimeError):
    """The scan of a derived image could not run; the message names the image and what it printed."""

    def __init__(self, message: str):
        super().__init__("install", message)


@dataclass(frozen=True)
class AgentCopy:
    """One copy of a case's package in an agent's install: the import name and where a trial can read it."""

    name: str
    path: str
    more: int = 0  # other paths with the same name (a vendored second copy ...)

    def as_dict(self) -> dict:
        return {"name": self.name, "path": self.path, "more": self.more}


@functools.lru_cache(maxsize=64)  # a base is scanned once per process, not once per agent derived from it
def readable_names(image: str) -> dict[str, list[str]]:
    """Import name -> the paths a trial can read it at, in a docker image (an id) or a root filesystem folder (both
    never change under the same id or content key)."""
    command = ["sh", "-c", f"command -v python3 >/dev/null || exit {NO_PYTHON}; exec python3 -c \"$0\"", _SCAN]
    if Path(image).is_dir():
        code, output = _in_rootfs(Path(image), command)
    else:
        code, output = _in_docker(image, command)
    if code == NO_PYTHON:
        return {}  # no Python in the image: nothing here is importable by a trial
    if code != 0:
        how = (f"bwrap --ro-bind {image} / python3 -V" if Path(image).is_dir()
               else f"docker run --rm {image[:19]} python3 -V")
        raise ScanError(f"the scan of image {image[:80]} for readable Python packages failed (exit {code}): "
                        f"{output[-300:]}; run `{how}` to see why")
    return json.loads(output.strip().splitlines()[-1])


def _in_docker(image: str, command: list[str]) -> tuple[int, str]:
    client = docker_engine(f"scanning harness image {image[:19]}", "start dockerd")
    try:
        return run_in_image(client, image, command, cap_bytes=16 << 20, name="nsb-install-scan")
    except docker.errors.DockerException as exc:
        raise ScanError(f"cannot start a container of image {image[:19]} to scan it: {exc}") from None


def _in_rootfs(rootfs: Path, command: list[str]) -> tuple[int, str]:
    uid = TRIAL_USER.split(":")[0]
    args = ["bwrap", "--ro-bind", str(rootfs), "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            # no user namespace: as root, then setpriv to the trial's uid, so the files' real owners decide access
            "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--die-with-parent", "--clearenv",
            "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin",
            "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", *command]
    proc = subprocess.run(args, capture_output=True, text=True, errors="replace", stdin=subprocess.DEVNULL)
    return proc.returncode, proc.stdout + proc.stderr


def _identity(image: str) -> str:
    """What the record was scanned from: a docker image id, or the rootfs folder (its key makes it one content)."""
    return str(Path(image).resolve()) if Path(image).is_dir() else image


def record_path(key: str) -> Path:
    return image_cache() / "derived" / key / RECORD


def read_record(key: str) -> dict | None:
    """The stored scan of derived image ``key``; None: never scanned here (or by an older scan)."""
    path = record_path(key)
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) and record.get("format") == FORMAT else None


def install_names(made: DerivedImage, base: str) -> dict[str, list[str]]:
    """Import name -> paths a trial can read in ``made`` that ``base`` (the image it was derived from) did not have
    there: what the install added. Scanned once per derived image id, then read from its record."""
    record = read_record(made.key)
    if record is not None and record.get("image") == _identity(made.image):
        return record["names"]
    before = readable_names(base)
    added = {}
    for name, paths in readable_names(made.image).items():
        new = sorted(set(paths) - set(before.get(name, ())), key=_preference)
        if new:
            added[name] = new
    path = record_path(made.key)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps({"format": FORMAT, "key": made.key, "image": _identity(made.image),
                                        "base": _identity(base), "names": added}, indent=1, sort_keys=True) + "\n")
    return added


def _preference(path: str) -> tuple:
    """A plain installed package before a vendored copy, a folder on disk before a member of an archive."""
    parts = PurePosixPath(path.split("!")[0]).parts
    return ("!" in path, any(p in ("_vendor", "vendor", "_vendored", "vendored", "extern") for p in parts), path)


def case_import_names(case: Case) -> list[str]:
    """A repository case's import names, from case.toml ``[source]``: the top folder or module of ``file`` (``src/``
    layouts too) and ``package`` as Python spells it. Empty for any other case, and for a sealed one (its case.toml
    is encrypted: it is opened for its own trial only)."""
    if case.sealed:
        return []
    try:
        source = tomllib.loads((case.root / "case.toml").read_text()).get("source", {})
    except (OSError, tomllib.TOMLDecodeError):
        return []
    return source_import_names(source) if isinstance(source, dict) else []


def source_import_names(source: dict) -> list[str]:
    """The import names a case.toml ``[source]`` table gives (``file``, ``package``); empty when it has neither."""
    names = set()
    parts = PurePosixPath(str(source.get("file", ""))).parts
    parts = parts[1:] if parts[:1] == ("src",) and len(parts) > 1 else parts
    if parts and parts[0].removesuffix(".py").isidentifier():
        names.add(parts[0].removesuffix(".py"))
    package = str(source.get("package", "")).lower().replace("-", "_").replace(".", "_")
    if package.isidentifier():
        names.add(package)
    return sorted(names)


def copies_for(names: dict[str, list[str]], case: Case) -> list[AgentCopy]:
    """The copies of ``case``'s package among an install's readable ``names``."""
    return [AgentCopy(n, names[n][0], len(names[n]) - 1) for n in case_import_names(case) if names.get(n)]


def case_image_key(image: str, install: Sequence[str]) -> str:
    """The content key ``derive_case_image`` gives ``install`` on a case's image (harnesses/pins.py), so the check
    can find the record without building anything."""
    base = f"rootfs:{Path(image).resolve()}" if Path(image).is_dir() else f"docker:{image}"
    return content_key(base, list(install))


def warning_lines(agent_copies: dict[str, dict[str, list[dict]]], agents: dict[str, str]) -> list[str]:
    """One warning per agent (``agents``: variant -> the agent's name) whose install holds a copy of a case's
    package: the package, the path a trial can read it at and how many cases it affects."""
    by_agent: dict[str, dict[str, tuple[str, set[str]]]] = {}
    variants: dict[str, list[str]] = {}
    for variant, per_case in agent_copies.items():
        agent = agents.get(variant, variant)
        variants.setdefault(agent, []).append(variant)
        for case_id, copies in per_case.items():
            for copy in copies:
                path, cases = by_agent.setdefault(agent, {}).setdefault(copy["name"], (copy["path"], set()))
                cases.add(case_id)
    lines = []
    for agent, packages in sorted(by_agent.items()):
        said = "; ".join(f"{name} at {path} ({len(cases)} case{'s' * (len(cases) != 1)})"
                         for name, (path, cases) in sorted(packages.items()))
        names = sorted(set(variants[agent]))
        who = f"agent {agent}" + (f" (variant{'s' * (len(names) != 1)} {', '.join(names)})"
                                  if names != [agent] else "")
        lines.append(f"{who}: its install holds a copy of the package under test that a trial can read: {said}. "
                     f"Those trials are flagged answer_in_agent_install (suspect; cheat when a command reads that "
                     f"path); install the agent without that package, or leave those cases out")
    return lines


def pending_line(agent: str, unscanned: int) -> str:
    return (f"agent {agent}: its install on {unscanned} case image{'s' * (unscanned != 1)} is not scanned yet for "
            f"copies of the packages under test; `nightshift run` scans it when it builds the image, before any trial")


def write_run_file(run_dir: Path, agent_copies: dict[str, dict[str, list[dict]]]) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run_dir / RUN_FILE, json.dumps(agent_copies, indent=1, sort_keys=True) + "\n")


def read_run_file(run_dir: Path) -> dict[str, dict[str, list[dict]]]:
    """The night's copies (variant -> case id -> copies); {} for a run that recorded none."""
    try:
        data = json.loads((run_dir / RUN_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def matched(names_by_image: dict[str, dict[str, list[str]]], cases: Iterable[Case],
            image_of: dict[str, str]) -> dict[str, list[dict]]:
    """Case id -> its copies, for each case whose derived image (``image_of``: case id -> key into
    ``names_by_image``) holds one."""
    out = {}
    for case in cases:
        names = names_by_image.get(image_of.get(case.id, ""))
        copies = copies_for(names, case) if names else []
        if copies:
            out[case.id] = [c.as_dict() for c in copies]
    return out
