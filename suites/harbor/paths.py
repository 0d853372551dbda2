"""Where a Harbor task's absolute paths are inside a nightshift sandbox, and the text rewrite to them.

The workspace is mounted at /workspace and also at the task's WORKDIR (so ``${DIR:-/app}`` and any
other form we do not rewrite still reaches it). Tests live under /grader (copied in at grading
only), the reward folder is made fresh by the verifier wrapper, the oracle's extra files are
unpacked by its script.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

TESTS_IN_SANDBOX = "/grader/tests/harbor"
LOGS_ROOT = "/tmp/harbor-logs"
LOGS_IN_SANDBOX = f"{LOGS_ROOT}/verifier"
SOLUTION_IN_SANDBOX = "/tmp/harbor-solution"
TEXT_SUFFIXES = {".sh", ".bash", ".py", ".md", ".txt", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini", ".js",
                 ".ts", ".go", ".rs", ".c", ".h", ".sql", ".env", ""}

# a path starts after a non-path character; ':-' and ':=' (shell defaults) and '=' count as separators
_BEFORE = r"(?<![\w./])(?<![\w]-)"
_AFTER = r"(?![\w-])"


def _path(path: str) -> re.Pattern[str]:
    return re.compile(_BEFORE + re.escape(path) + _AFTER)


def map_paths(text: str, workdir: str) -> str:
    """Rewrite /tests, /logs/verifier, /solution and the WORKDIR to their places in the sandbox."""
    text = _path("/logs/verifier").sub(LOGS_IN_SANDBOX, text)
    text = _path("/tests").sub(TESTS_IN_SANDBOX, text)
    text = _path("/solution").sub(SOLUTION_IN_SANDBOX, text)
    if workdir not in ("/", "/workspace"):
        text = _path(workdir).sub("/workspace", text)
    return text


def copy_mapped(src: Path, dst: Path, workdir: str) -> None:
    """Copy a folder; text files get their paths mapped, binary files are copied as they are."""
    shutil.copytree(src, dst, dirs_exist_ok=True)
    for path in dst.rglob("*"):
        if path.is_file() and not path.is_symlink() and path.suffix in TEXT_SUFFIXES:
            try:
                path.write_text(map_paths(path.read_text(), workdir))
            except UnicodeDecodeError:
                continue
