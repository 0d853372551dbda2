"""Release pairs: what changed between two releases of a package, split into the gold patch and the rest.

A pair is ``NAME==OLD..NEW`` (or ``NAME==NEW`` with ``--release-pairs``: OLD is the release before NEW on
PyPI, found with ``pip index versions`` at import time). The gold patch is the source diff old -> new
without the test files (the newer tests are the grader's), the sdist's metadata (PKG-INFO, *.egg-info) and
the documentation (docs/, doc/, changelogs: prose, not code the tests import). A diff over the budget, one
that changes a binary source file, or a newer release that needs dependencies the older one's image lacks
is refused with the files or requirements named.
"""

from __future__ import annotations

import difflib
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from nightshift.suites.pypi_tasks.changelog import NAMES as CHANGELOG_NAMES
from nightshift.suites.pypi_tasks.download import Refused, pair_versions

MAX_FILES = 12  # source files the gold patch touches
MAX_LINES = 400  # lines it adds plus lines it removes
_METADATA = ("PKG-INFO",)
_CACHE_DIRS = {"__pycache__", ".git", ".tox", ".nox", ".pytest_cache", ".mypy_cache"}  # never compared
_PROSE_DIRS = {"docs", "doc"}
_HOUSEKEEPING = {"Makefile", "MANIFEST.in", "LICENSE", "LICENCE", "AUTHORS", "CONTRIBUTORS", "justfile",
                 "noxfile.py", "tasks.py", "codecov.yml"}


@dataclass(frozen=True)
class Pair:
    name: str
    old: str
    new: str

    @property
    def spec(self) -> str:
        return f"{self.name}=={self.old}..{self.new}"


@dataclass
class Split:
    """Relative path -> (old text or None, new text or None) for each changed file, by role."""
    source: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    tests: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # docs, changelogs, metadata: not in the gold patch

    def gold_patch(self) -> str:
        return "".join(file_diff(rel, old, new) for rel, (old, new) in sorted(self.source.items()))

    def lines_changed(self) -> int:
        return sum(1 for line in self.gold_patch().splitlines()
                   if line[:1] in "+-" and not line.startswith(("+++ ", "--- ")))


def file_diff(rel: str, old: str | None, new: str | None) -> str:
    """A git-style diff of one file that ``git apply`` and ``patch -p1`` take: created and deleted files get
    /dev/null headers, and a last line without a newline is marked as diff marks it."""
    before, after = (old or "").splitlines(keepends=True), (new or "").splitlines(keepends=True)
    mode = "new file mode 100644\n" if old is None else "deleted file mode 100644\n" if new is None else ""
    lines = difflib.unified_diff(before, after, fromfile="/dev/null" if old is None else f"a/{rel}",
                                 tofile="/dev/null" if new is None else f"b/{rel}")
    return f"diff --git a/{rel} b/{rel}\n{mode}" + "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def parse_pair(spec: str, where: str) -> Pair:
    return Pair(*pair_versions(spec, where))


def previous_release(name: str, new: str, versions: list[str]) -> str:
    """The highest final release below ``new`` among ``versions`` (pre-releases and yanked ones are not listed)."""
    target = Version(new)
    older = []
    for text in versions:
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        if version < target and not version.is_prerelease and not version.is_devrelease:
            older.append(version)
    if not older:
        raise Refused(f"PyPI lists no release of {name} before {new}")
    return str(max(older))


def pypi_versions(name: str) -> list[str]:
    """The versions ``pip index versions`` lists for ``name`` (import time only)."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "index", "versions", name]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise Refused(f"pip index versions {name} took over 120 s") from None
    listed = re.search(r"^Available versions:\s*(.+)$", proc.stdout, re.M)
    if proc.returncode != 0 or not listed:
        tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-2:])
        raise Refused(f"pip could not list the releases of {name}: {tail[:300]}")
    return [v.strip() for v in listed.group(1).split(",") if v.strip()]


def _files(root: Path) -> dict[str, Path]:
    found = {}
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and not path.is_symlink() and not _CACHE_DIRS & set(rel.parts[:-1]) \
                and not path.name.endswith(".pyc"):
            found[rel.as_posix()] = path
    return found


def is_test_file(rel: str, test_paths: list[str]) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return (any(rel == t or rel.startswith(t.rstrip("/") + "/") for t in test_paths) or name == "conftest.py"
            or (name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))))


def _is_prose(rel: str) -> bool:
    """Not code the tests import: metadata, docs, changelogs, root text files and repository housekeeping
    (.gitignore, .github/, Makefile, CI and lint configuration)."""
    parts = rel.split("/")
    stem = parts[-1].lower().rsplit(".", 1)[0]
    return (parts[-1] in _METADATA or any(p.endswith(".egg-info") for p in parts) or stem in CHANGELOG_NAMES
            or parts[0] in _PROSE_DIRS or any(p.startswith(".") for p in parts)
            or (len(parts) == 1 and (parts[0] in _HOUSEKEEPING or parts[0].lower().endswith(
                (".rst", ".md", ".txt", ".yml", ".yaml", ".cfg.sample")) and not stem.startswith("requirements"))))


def split_diff(old_root: Path, new_root: Path, test_paths: list[str]) -> Split:
    """Every file that differs between the two trees, sorted into source (the gold patch), tests and skipped."""
    old_files, new_files = _files(old_root), _files(new_root)
    split = Split()
    for rel in sorted(set(old_files) | set(new_files)):
        before = old_files[rel].read_bytes() if rel in old_files else None
        after = new_files[rel].read_bytes() if rel in new_files else None
        if before == after:
            continue
        if is_test_file(rel, test_paths):
            split.tests.append(rel)
        elif _is_prose(rel):
            split.skipped.append(rel)
        else:
            try:
                texts = tuple(None if b is None else b.decode() for b in (before, after))
            except UnicodeDecodeError:
                raise Refused(f"its source diff changes a binary file ({rel}); a text patch cannot carry it") from None
            split.source[rel] = texts  # type: ignore[assignment]  # a pair of str | None
    return split


def check_budget(split: Split, max_files: int = MAX_FILES, max_lines: int = MAX_LINES) -> None:
    if not split.source:
        raise Refused(f"its source does not change between the releases (only {len(split.tests)} test and "
                      f"{len(split.skipped)} other files do)")
    lines = split.lines_changed()
    if len(split.source) > max_files or lines > max_lines:
        shown = ", ".join(sorted(split.source)[:6]) + (" ..." if len(split.source) > 6 else "")
        raise Refused(f"its source diff is too large for one task: {len(split.source)} files, {lines} lines "
                      f"changed (budget {max_files} files, {max_lines} lines): {shown}")


def missing_requirements(requirements: list[str], wheelhouse: Path) -> list[str]:
    """The requirements (markers already evaluated) that no wheel in ``wheelhouse`` satisfies."""
    have: dict[str, list[Version]] = {}
    for wheel in wheelhouse.glob("*.whl"):
        try:
            name, version, _build, _tags = parse_wheel_filename(wheel.name)
        except ValueError:
            continue
        have.setdefault(canonicalize_name(name), []).append(version)
    missing = []
    for raw in requirements:
        try:
            req = Requirement(raw)
        except InvalidRequirement:
            missing.append(raw)
            continue
        versions = have.get(canonicalize_name(req.name), [])
        if not any(req.specifier.contains(v, prereleases=True) for v in versions):
            shown = ", ".join(str(v) for v in versions) or "none"
            missing.append(f"{raw} (the older release's image has {shown})")
    return missing
