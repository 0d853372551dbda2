"""A trial's trajectory (nightshift/trajectory.py JSON lines) as steps: the model's message, each tool call
with its output and timing, the tokens of the call; and where two trials' steps first diverge.

A step's ``signature`` is what the agent decided at that step (its tool calls, or its text when it
called none): the page marks two trials as diverging at the first step whose signatures differ (or
where the shorter one ends).
"""

from __future__ import annotations

import json
from pathlib import Path

FOLD_CHARS = 2000  # outputs longer than this are folded in the page (the whole text is still there)


def read_steps(path: Path, outputs: bool = True) -> list[dict]:
    """Steps in order; a missing or half-written trajectory gives the steps that were written."""
    if not path.is_file():
        return []
    steps: dict[int, dict] = {}
    prompt: list[dict] = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # a trial killed mid-write leaves a partial last line
        if not isinstance(event, dict):
            continue
        kind = event.get("event")
        if kind == "start":
            prompt = event.get("messages") or []
            continue
        number = event.get("step")
        if not isinstance(number, int):
            continue
        step = steps.setdefault(number, {"step": number, "t": event.get("t"), "text": "", "calls": [],
                                         "seconds": None, "usage": None, "end": None})
        if kind == "model":
            sent = event.get("message")
            message = sent if isinstance(sent, dict) else {}
            text = message.get("content") or ""
            step.update(text=text if isinstance(text, str) else json.dumps(text), seconds=event.get("seconds"),
                        usage=event.get("usage"), served_by=event.get("served_by"))
            calls = message.get("tool_calls") if isinstance(message, dict) else None
            for call in calls if isinstance(calls, list) else []:
                step["calls"].append(_call(call))
        elif kind == "tool":
            _attach_output(step, event, outputs)
        elif kind in ("submit", "infra_error"):
            step["end"] = kind if kind == "submit" else f"infra error: {event.get('error', '')}"
    ordered = [steps[n] for n in sorted(steps)]
    for step in ordered:
        step["signature"] = signature(step)
    if ordered and outputs:
        ordered[0]["prompt"] = prompt
    return ordered


def _call(sent: object) -> dict:
    """One tool call as the model sent it; a malformed one (the agent's choice) is shown, never a crash."""
    call = sent if isinstance(sent, dict) else {}
    named = call.get("function")
    function = named if isinstance(named, dict) else {}
    arguments = function.get("arguments") or ""
    arguments = arguments if isinstance(arguments, str) else json.dumps(arguments)
    try:
        command = json.loads(arguments).get("command", "") if arguments else ""
    except (json.JSONDecodeError, AttributeError):
        command = ""
    return {"id": call.get("id"), "name": str(function.get("name", "?")), "arguments": arguments,
            "command": command if isinstance(command, str) else json.dumps(command), "output": None, "seconds": None}


def _attach_output(step: dict, event: dict, outputs: bool) -> None:
    call = event.get("call")
    call_id = call.get("id") if isinstance(call, dict) else None
    for call in step["calls"]:
        if call["id"] == call_id and call["output"] is None:
            output = str(event.get("output", "")) if outputs else ""
            call["output"] = output
            call["seconds"] = event.get("seconds")
            call["folded"] = len(output) > FOLD_CHARS
            return


def signature(step: dict) -> str:
    """What the agent chose at this step: its calls (name + arguments), else its text."""
    if step["calls"]:
        return json.dumps([[c["name"], c["command"] or c["arguments"]] for c in step["calls"]])
    return json.dumps(["text", (step.get("text") or "").strip()])

