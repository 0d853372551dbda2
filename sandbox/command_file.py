"""What an agent sends to ``exec`` reaches the sandbox as a file, never in argv; bad input is a result.

The rule this module enforces for both backends: *nothing the agent sends can produce infra_error*.
A command travelled in argv before, so 150 KB (one argument's kernel limit, MAX_ARG_STRLEN = 128 KiB)
raised E2BIG, and a NUL or a lone surrogate raised ValueError / UnicodeEncodeError: the trial became
``infra_error`` and left every denominator. Now the command is written, as bytes, to
``<sandbox folder>/run/command`` (bound read-only at ``/run/nightshift/command``) and run with
``bash /run/nightshift/command`` (the one shell of the command on both backends, so ``kill -9 $$`` or
``kill -KILL -1`` end the same way on both), so its size is bounded only by the sandbox's disk and memory.

Encoding: UTF-8; lone surrogates that came from undecodable bytes (``surrogateescape``) become those
bytes again, any other unencodable character becomes ``?``. A NUL in the first line makes bash refuse
the file ("cannot execute binary file", exit 126); later NULs are dropped by bash. A command that is
not a string, or a ``cwd``/``env`` that cannot be passed (NUL, ``=`` in a name), returns exit 126 with
a ``[sandbox] refused`` line instead of running.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from nightshift.models import ExecResult

RUN_INSIDE = "/run/nightshift"  # the sandbox folder's run/ (read-only): the command file, unix sockets
COMMAND_INSIDE = f"{RUN_INSIDE}/command"
REFUSED = 126  # what bash returns for a file it cannot execute

@dataclass(frozen=True)
class PreparedCommand:
    script: bytes
    cwd: str
    env: dict[str, str]


def encode_text(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


def _passable(value: object) -> bool:
    """A string that can be one argv entry / environment value: no NUL, encodable."""
    if not isinstance(value, str) or "\0" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def prepare(command: object, cwd: object, env: object) -> PreparedCommand | ExecResult:
    """The command as file bytes plus a checked cwd/env, or the ExecResult that refuses it."""
    if not isinstance(command, str):
        return refused(f"the command must be a string, not {type(command).__name__}")
    if not _passable(cwd) or not str(cwd).startswith("/"):
        return refused(f"cwd {cwd!r} is not an absolute path without NUL bytes")
    env = env or {}
    if not isinstance(env, dict) or not all(_passable(k) and k and "=" not in k and _passable(v)
                                            for k, v in env.items()):
        return refused("env must map names without '=' or NUL to strings without NUL")
    return PreparedCommand(encode_text(command), str(cwd), dict(env))


def refused(why: str) -> ExecResult:
    return ExecResult(exit_code=REFUSED, stdout="", stderr=f"[sandbox] refused: {why}\n", timed_out=False,
                      duration_s=0.0)


def write_command(run_dir: Path, script: bytes) -> None:
    """Replace the command file atomically (root-owned, readable by the sandbox user, read-only inside)."""
    staging = run_dir / ".command.new"
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(script)
    os.replace(staging, run_dir / "command")
