"""The agent's final workspace as a unified diff against the case's starting workspace.

The starting files are copied under /grader (read-only inside) and ``diff`` runs in the sandbox itself,
so a symlink the agent left can never make the host read outside the workspace. Output is capped by the
sandbox's own output limit; the dropped byte count is kept so the viewer can say the diff is cut.
"""

from __future__ import annotations

import re

from nightshift.contracts import Sandbox
from nightshift.models import Case

_START = "/grader/start"
# test runs and imports leave bytecode behind; it is noise in a review of what the agent changed
_COMMAND = f"diff -ruN --no-dereference -x __pycache__ -x '*.pyc' {_START} /workspace"
_HEADER = re.compile(rf"^(diff -ruN.*|--- {_START}/\S*|\+\+\+ /workspace/\S*|Only in .*|Binary files .*)", re.M)


def workspace_diff(case: Case, sandbox: Sandbox, timeout_s: float = 30.0) -> tuple[str, int]:
    """(unified diff with a/ and b/ paths, bytes dropped by the output cap); an empty diff: nothing changed."""
    if case.workspace_dir.is_dir():
        sandbox.copy_in(case.workspace_dir, _START)
    result = sandbox.exec(_COMMAND, timeout_s=timeout_s, cwd="/")
    if result.exit_code not in (0, 1):  # diff: 0 same, 1 different, 2 trouble
        return f"diff could not run (exit {result.exit_code}): {result.stderr[-300:]}", 0
    text = _HEADER.sub(lambda m: m.group(0).replace(f"{_START}/", "a/").replace("/workspace/", "b/"), result.stdout)
    return text, result.stdout_dropped
