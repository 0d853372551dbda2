"""A trial's trajectory (the events of nightshift/trajectory.py, one JSON line each) as the viewer draws it: the
instruction, the steps — the model's message, each tool call with its output and timing, the tokens of the
call, the harness's notes — how the agent phase ended (an error's traceback, a limit, a command's exit), and
every line that does not fit its event's model; and where two trials' steps first diverge.

Every harness kind's events come out the same: the reference loop's and a Python harness's ``model`` and
``tool`` events; a command harness's ``model`` events from its model proxy, whose tool outputs are read from
the ``tool`` messages of the agent's next request; a ``tool`` event whose call no ``model`` event announced
is drawn as its own call.

A step's ``signature`` is what the agent decided at that step (its tool calls, or its text when it
called none): the page marks two trials as diverging at the first step whose signatures differ (or
where the shorter one ends).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from nightshift.trajectory import event_problems

FOLD_CHARS = 2000  # outputs longer than this are folded in the page (the whole text is still there)
ENDINGS = ("submit", "agent_error", "infra_error", "step_limit", "timeout", "token_limit", "cost_limit")


def read_steps(path: Path, outputs: bool = True) -> list[dict]:
    """Steps in order; a missing or half-written trajectory gives the steps that were written."""
    return read_trajectory(path, outputs)["steps"]


def read_trajectory(path: Path, outputs: bool = True) -> dict:
    """``instruction``, ``steps``, ``ending`` (what came after the last step: errors with their traceback,
    limits, a command's exit, notes) and ``problems`` (lines that do not fit the event schema; only read
    with ``outputs``, the full view)."""
    found: dict[str, Any] = {"instruction": "", "steps": [], "ending": [], "problems": []}
    if not path.is_file():
        return found
    events = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a trial killed mid-write leaves a partial last line
    steps: dict[int, dict] = {}
    prompt: list[dict] = []
    for i, event in enumerate(events):
        if not isinstance(event, dict):
            continue
        kind = event.get("event")
        if outputs and kind != "invalid_event":
            problems = event_problems(event)
            flagged = i + 1 < len(events) and isinstance(events[i + 1], dict) \
                and events[i + 1].get("event") == "invalid_event"
            if problems and not flagged:  # written around TrajectoryLog: flagged here instead
                found["problems"].append({"of": str(kind), "field": problems[0][0], "step": event.get("step"),
                                          "error": "; ".join(f"{f or '(line)'}: {w}" for f, w in problems)})
        if kind == "trial":
            found["instruction"] = str(event.get("instruction") or "")
            continue
        if kind == "start":
            prompt = [m for m in event.get("messages") or [] if isinstance(m, dict)]
            continue
        if kind == "invalid_event":
            found["problems"].append({k: event.get(k) for k in ("of", "field", "step", "error")})
            continue
        number = event.get("step")
        if not isinstance(number, int) or kind in ("command_end", "proxy_refused", "model_rejected"):
            found["ending"].append(_ending(event, outputs))
            continue
        step = steps.setdefault(number, {"step": number, "t": event.get("t"), "text": "", "calls": [], "notes": [],
                                         "seconds": None, "usage": None, "end": None})
        if kind == "model":
            _attach_model(step, event, steps, outputs)
        elif kind == "tool":
            _attach_output(step, event, outputs)
        elif kind == "note":
            if not (event.get("source") and event.get("text") == step["text"]):  # an agent log's copy of the text
                step["notes"].append(str(event.get("text", "")))
        elif kind in ENDINGS:
            step["end"] = _end_line(event)
            if event.get("traceback") and outputs:
                step["traceback"] = str(event["traceback"])
        else:  # an event of the harness's own name
            step["notes"].append(f"{kind}: {_own_text(event)}")
    ordered = [steps[n] for n in sorted(steps)]
    for step in ordered:
        step["signature"] = signature(step)
    if ordered and outputs:
        ordered[0]["prompt"] = prompt
    if not found["instruction"]:  # a trajectory written before the trial line: the prompt's user text
        found["instruction"] = "\n\n".join(str(m.get("content") or "") for m in prompt if m.get("role") == "user")
    found["steps"] = ordered
    return found


def _end_line(event: dict) -> str:
    kind = event.get("event")
    if kind == "submit":
        return "submit"
    detail = event.get("error") or event.get("reason") or ""
    return f"{str(kind).replace('_', ' ')}: {detail}" if detail else str(kind)


def _ending(event: dict, outputs: bool) -> dict:
    """A line outside the steps, as one box: what it says, and its long text (a traceback, an agent's output)."""
    kind = str(event.get("event"))
    if kind == "command_end":
        text = f"the agent command exited with code {event.get('exit_code')}" + (
            " (killed at its time limit)" if event.get("timed_out") else "")
        long = "\n".join(f"--- {name} (tail) ---\n{event[name]}" for name in ("stdout", "stderr") if event.get(name))
    elif kind == "note":
        text, long = str(event.get("text", "")), ""
    elif kind in ENDINGS:
        text, long = _end_line(event), str(event.get("traceback") or "")
    else:  # the proxy's refusals, and events of the harness's own names: shown as written
        text, long = f"{kind}: {_own_text(event)}", ""
    return {"event": kind, "text": text, "long": long if outputs else ""}


def _own_text(event: dict) -> str:
    """What an event of no drawn kind says: its message's text, an error, a reason, a text; else its fields."""
    message = event.get("message")
    if isinstance(message, dict) and isinstance(message.get("content"), str):
        return message["content"]
    for key in ("message", "error", "reason", "text"):
        if isinstance(event.get(key), str) and event[key]:
            return event[key]
    return json.dumps({k: v for k, v in event.items() if k not in ("t", "event", "step")}, default=str)[:FOLD_CHARS]


def _attach_model(step: dict, event: dict, steps: dict[int, dict], outputs: bool) -> None:
    sent = event.get("message")
    message: dict[str, Any] = sent if isinstance(sent, dict) else {}
    text = message.get("content") or ""
    step.update(text=text if isinstance(text, str) else json.dumps(text), seconds=event.get("seconds"),
                usage=event.get("usage") if isinstance(event.get("usage"), dict) else None,
                served_by=event.get("served_by"))
    calls = message.get("tool_calls")
    for call in calls if isinstance(calls, list) else []:
        step["calls"].append(_call(call))
    asked = event.get("request")
    request: dict[str, Any] = asked if isinstance(asked, dict) else {}
    for sent in request.get("messages") or []:  # a command harness: the outputs of the calls before, as sent back
        if isinstance(sent, dict) and sent.get("role") == "tool":
            _fill_output(steps.values(), sent.get("tool_call_id"), sent.get("content"), None, outputs)


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


def _fill_output(steps, call_id: object, output: object, seconds: object, outputs: bool) -> bool:
    for step in steps:
        for call in step["calls"]:
            if call["id"] == call_id and call["output"] is None:
                text = output if isinstance(output, str) else json.dumps(output, default=str)
                call["output"] = text if outputs else ""
                call["seconds"] = seconds
                call["folded"] = len(text) > FOLD_CHARS
                return True
    return False


def _attach_output(step: dict, event: dict, outputs: bool) -> None:
    call = event.get("call")
    call_id = call.get("id") if isinstance(call, dict) else None
    if not _fill_output([step], call_id, event.get("output", ""), event.get("seconds"), outputs):
        if any(c["id"] == call_id for c in step["calls"]):
            return  # already drawn with its output (an agent's own log repeats what its next request showed)
        step["calls"].append(_call(call))  # a call no model event announced: drawn on its own
        _fill_output([step], call_id, event.get("output", ""), event.get("seconds"), outputs)


def signature(step: dict) -> str:
    """What the agent chose at this step: its calls (name + arguments), else its text."""
    if step["calls"]:
        return json.dumps([[c["name"], c["command"] or c["arguments"]] for c in step["calls"]])
    return json.dumps(["text", (step.get("text") or "").strip()])
