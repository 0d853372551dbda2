"""Edit-block replies, for agents whose model answers are file edits in text (aider), not commands or tools.

A real model reads the system prompt and answers in the format it asks for; the stand-in does the same for
aider's *whole* format ("file listing": a file's path on a line, then its entire new content in a fence),
which it can produce straight from a case's scripted solution when that script writes whole files. Pure:
no I/O; the oracle script is only read, never run.

``solution_files`` accepts a script made of ``cat > PATH <<'TAG' ... TAG`` blocks and lines that change no
file content (``set``, ``mkdir -p``, ``chmod``, ``grep -q``/``test`` checks, comments); anything else (a
``sed -i``, a generator run) cannot be written as whole files, and the reply says so instead of guessing:
that trial fails, as a model that cannot express the fix would (simulator/README.md).
"""

from __future__ import annotations

import re
import shlex

WHOLE_FILE_MARKER = "*file listing*"  # aider's whole-format system prompt: "You MUST use this *file listing* format"
FENCE = "```"
_HEREDOC = re.compile(r"""^cat\s*>\s*(?P<path>[^\s<]+)\s*<<-?\s*(?P<q>['"]?)(?P<tag>\w+)(?P=q)\s*$""")
_HARMLESS = re.compile(r"^(#.*|set\s.*|mkdir\s+-p\s.*|chmod\s.*|grep\s+-q\s.*|test\s.*|\[\s.*|cd\s+/workspace)?$")
NOT_EXPRESSIBLE = "I can see what has to change, but I cannot write it as whole files; no changes made."
NO_CHANGE = "No changes are needed."
DONE = "The requested changes are complete."


def solution_files(script: str) -> dict[str, str] | None:
    """The files a solution script writes whole (path -> content), or None when it does anything else."""
    files: dict[str, str] = {}
    lines = script.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        found = _HEREDOC.match(line)
        if found:
            end = next((j for j in range(i + 1, len(lines)) if lines[j] == found["tag"]), None)
            if end is None:
                return None
            body = "\n".join(lines[i + 1:end]) + "\n"
            if not found["q"] and re.search(r"[$`\\]", body):  # an unquoted heredoc would expand these
                return None
            if any(part.startswith(FENCE) for part in body.splitlines()):  # would close the listing early
                return None
            path = shlex.split(found["path"])[0]
            files[path.removeprefix("./")] = body
            i = end + 1
            continue
        if not _HARMLESS.match(line):
            return None
        i += 1
    return files or None


def asks_for_whole_files(texts: list[str]) -> bool:
    """Whether the request's system prompt (or a reminder in any message) asks for aider's whole format."""
    return any(WHOLE_FILE_MARKER in text for text in texts)


def whole_reply(plan_solves: bool, solution: str, first_turn: bool) -> str:
    """The reply in the whole format: the solution's files on the first turn of a solving trial."""
    if not first_turn:  # aider came back (a reflection): the edits were made on the first turn
        return DONE
    if not plan_solves:
        return NO_CHANGE
    files = solution_files(solution)
    if files is None:
        return NOT_EXPRESSIBLE
    listings = [f"{path}\n{FENCE}\n{content}{FENCE}" for path, content in files.items()]
    return "Here are the updated files.\n\n" + "\n\n".join(listings) + "\n"
