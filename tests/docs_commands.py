"""The shell commands README.md and docs/*.md tell a user to type, read from their fenced code blocks.

Used by tests/test_docs_commands.py: every `nightshift`, `make`, `prefect` and `python -m` command there must
name a subcommand, target, module and flags that exist, and a listed subset is run as written.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import REPO

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "docs" / "plugins").glob("*.md"))]
BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)
PROGRAMS = ("nightshift", "make", "prefect", "python", "python3")
COMMAND = re.compile(r"^(sudo |\$ )?([A-Z_]+=\S* )*(\S*/)?(nightshift|make|prefect|python3?) ")


@dataclass(frozen=True)
class DocCommand:
    file: Path
    line: int
    text: str
    """The command as written (continuation lines joined, the trailing comment and a `$ ` prompt dropped)."""

    @property
    def where(self) -> str:
        return f"{self.file.relative_to(REPO)}:{self.line}"

    def words(self) -> list[str]:
        """The command's words with synopsis brackets, `...` and leading `sudo`/VAR=value dropped."""
        words = shlex.split(self.text.replace("[", " ").replace("]", " "))
        while words and (words[0] == "sudo" or re.fullmatch(r"[A-Z_]+=\S*", words[0])):
            words.pop(0)
        return [w for w in words if w not in ("...", "&", "|") and not w.endswith("...")]

    @property
    def program(self) -> str:
        return Path(self.words()[0]).name


def _logical_lines(body: str) -> list[tuple[int, str]]:
    """(offset, line) with backslash continuations joined."""
    out, pending, start = [], "", 0
    for i, raw in enumerate(body.splitlines()):
        if not pending:
            start = i
        line = raw.rstrip()
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append((start, pending + line))
        pending = ""
    return out


def _without_comment(line: str) -> str:
    """The line up to a `#` that starts a comment (outside quotes)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split, lexer.commenters = True, "#"
    try:
        return " ".join(shlex.quote(w) if " " in w else w for w in lexer)
    except ValueError:  # an unbalanced quote: keep the line for the check to report
        return line


def doc_commands(files: list[Path] = DOCS) -> list[DocCommand]:
    found = []
    for path in files:
        text = path.read_text()
        for block in BLOCK.finditer(text):
            first = text.count("\n", 0, block.start(1)) + 1
            for offset, line in _logical_lines(block.group(1)):
                if COMMAND.match(line.strip() + " "):
                    command = _without_comment(line.strip().removeprefix("$ ")).strip()
                    found.append(DocCommand(path, first + offset, command))
    return found


def block_after(path: Path, heading: str) -> list[str]:
    """The commands of the first code block under the heading ``heading`` of ``path``."""
    text = path.read_text()
    at = text.index(heading)
    block = BLOCK.search(text, at)
    assert block, f"{path}: no code block under {heading!r}"
    return [_without_comment(line).strip() for _, line in _logical_lines(block.group(1))
            if _without_comment(line).strip()]
