"""The changelog entry of one version, read from the files projects ship in their sdist.

Looked for at the root and in docs/ or doc/: CHANGELOG, CHANGES, HISTORY, NEWS, RELEASE_NOTES (any case,
with or without .rst/.md/.txt). An entry starts at a heading that names the version (``## 1.2.3``,
``v1.2.3 (2024-01-01)``, ``[1.2.3] - ...``, an rst title underlined with ``=``/``-``/``~``, ``Version 1.2.3``)
and ends at the next heading that names any version. Formats differ too much for one grammar, so a heading
is recognised by shape: a markdown ``#``, an rst underline, or a short line that starts with the version.
"""

from __future__ import annotations

import re
from pathlib import Path

NAMES = ("changelog", "changes", "history", "news", "release_notes", "releases", "release-notes")
_SUFFIXES = ("", ".rst", ".md", ".txt", ".markdown")
_UNDERLINE = re.compile(r"^\s*([=\-~^*+#`'\"])\1{2,}\s*$")
_ANY_VERSION = re.compile(r"(?<![\w.])v?\d+(\.\d+)+([a-z]+\d*|\.post\d+|\.dev\d+)?(?![\w])", re.I)
MAX_LINES = 40
MAX_CHARS = 3000


def changelog_files(source: Path) -> list[Path]:
    found = []
    for folder in (source, source / "docs", source / "doc"):
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            stem, suffix = path.stem.lower(), path.suffix.lower()
            if path.is_file() and suffix in _SUFFIXES and (stem in NAMES or path.name.lower() in NAMES):
                found.append(path)
    return found


def _version_at_start(line: str, version: str) -> bool:
    """The line is about ``version``: it starts (after heading marks and words like 'Version') with it."""
    text = re.sub(r"^[#=*\s\[`]*(version|release|v(?=\d))?\s*", "", line.strip(), flags=re.I)
    return re.match(rf"v?{re.escape(version)}(?![\w.]|\.\d)", text, re.I) is not None


def _is_heading(lines: list[str], i: int) -> bool:
    line = lines[i]
    if not line.strip() or _UNDERLINE.match(line):
        return False
    if line.lstrip().startswith("#"):
        return True
    if i + 1 < len(lines) and _UNDERLINE.match(lines[i + 1]):
        return True
    return len(line.strip()) <= 80 and not line.startswith((" ", "\t", "-", "*", "+"))


def entry(text: str, version: str) -> str | None:
    """The entry for ``version`` in one changelog's text, trimmed, or None when it has none."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _is_heading(lines, i) and _version_at_start(line, version)),
                 None)
    if start is None:
        return None
    body: list[str] = []
    for i in range(start + 1, len(lines)):
        if _is_heading(lines, i) and _ANY_VERSION.search(lines[i]) and _starts_with_version(lines[i]):
            break
        body.append(lines[i])
    while body and (not body[0].strip() or _UNDERLINE.match(body[0])):
        body.pop(0)
    while body and (not body[-1].strip() or _UNDERLINE.match(body[-1])):
        body.pop()
    if not any(line.strip() for line in body):
        return None
    trimmed = "\n".join(body[:MAX_LINES])[:MAX_CHARS]
    return trimmed + ("\n..." if len(body) > MAX_LINES or len(trimmed) == MAX_CHARS else "")


def _starts_with_version(line: str) -> bool:
    found = _ANY_VERSION.search(line)
    return found is not None and _version_at_start(line, found.group(0).lstrip("vV"))


def find_entry(source: Path, version: str) -> tuple[str, str] | None:
    """(file name, entry) of the first changelog in ``source`` with an entry for ``version``."""
    for path in changelog_files(source):
        found = entry(path.read_text(errors="replace"), version)
        if found:
            return path.relative_to(source).as_posix(), found
    return None
