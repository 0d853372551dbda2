"""The two tools of nightshift's reference loop, as a harness offers them to a model, and how a command's result
reads back to it: any harness may use the same (examples/plan_act.py does)."""

from __future__ import annotations

from nightshift.models import ExecResult

TOOL_SCHEMAS = {
    "bash": {"type": "function", "function": {
        "name": "bash",
        "description": "Run a bash command in the sandbox (cwd /workspace). Returns exit code and output.",
        "parameters": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}}},
    "submit": {"type": "function", "function": {
        "name": "submit", "description": "Call when the task is complete. Ends the episode.",
        "parameters": {"type": "object", "properties": {}}}},
}
OBSERVATION_CHARS = 8000  # what the model sees of one command's output


def render_observation(result: ExecResult) -> str:
    text = f"exit code: {result.exit_code}" + (" (timed out)" if result.timed_out else "")
    if result.stdout:
        text += f"\nstdout:\n{result.stdout[-OBSERVATION_CHARS:]}"
    if result.stderr:
        text += f"\nstderr:\n{result.stderr[-OBSERVATION_CHARS // 2:]}"
    return text
