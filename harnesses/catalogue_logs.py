"""An installed agent's own log, collected at the end of its trial and mapped onto trajectory events.

The proxy's ``model`` lines already record every call; an agent's log adds what only the agent knows — the
command it ran for each reply and what it saw, the files it edited — as ``tool`` events in the same steps
(step k = the agent's k-th model reply = the proxy's k-th call), so the viewer draws any agent's steps the
way it draws the reference loop's. Each mapped line carries ``source: agent_log``.

The log is written by the agent, so it is read as hostile data: at most LOG_LIMIT bytes, a regular file
only, through bounded execs; a mapper that fails on it is a note in the trajectory, never the trial's end.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import shlex
from typing import TYPE_CHECKING, Any

from nightshift.contracts import Sandbox
from nightshift.trajectory import TrajectoryLog

if TYPE_CHECKING:  # the catalogue imports this module's mappers by name; typing only here
    from nightshift.harnesses.catalogue import InstalledAgent

LOG_LIMIT = 2_000_000  # bytes read of an agent's log at most
MAX_FILES = 64  # of a log folder's *.jsonl files
CHUNK = 45_000  # bytes per exec: their base64 (60 kB) fits the default 64 KiB output cap
MAX_EVENTS = 2000
OUTPUT_CHARS = 20_000  # of one mapped output
READ_TIMEOUT_S = 30


def read_agent_log(sandbox: Sandbox, path: str) -> tuple[bytes | None, str]:
    """The log's bytes (None when absent or unreadable) and what was wrong, read as the sandbox's user (so a
    link the agent planted reaches nothing it could not read itself) in CHUNK-sized pieces: each exec's
    captured output is capped (SandboxLimits.output_kb, 64 KiB by default)."""
    quoted = shlex.quote(path)
    if path.endswith("/"):  # a folder: its *.jsonl files (regular ones: find -P never follows a link), in
        # path order, at most MAX_FILES, each ended by a newline so two files' lines never join
        test = f"[ -d {quoted} ] && [ ! -L {shlex.quote(path.rstrip('/'))} ]"
        source = (f"find -P {quoted} -type f -name '*.jsonl' -print0 | sort -z | head -z -n {MAX_FILES}"
                  f" | xargs -0 -r awk 1")
    else:
        test = f"[ -f {quoted} ] && [ ! -L {quoted} ]"
        source = f"cat -- {quoted}"
    data = b""
    while len(data) < LOG_LIMIT:
        command = (f"if {test}; then timeout 20 sh -c {shlex.quote(source)} | tail -c +{len(data) + 1}"
                   f" | head -c {CHUNK} | base64 -w0; else echo 'NIGHTSHIFT_NO_LOG' >&2; exit 3; fi")
        result = sandbox.exec(command, timeout_s=READ_TIMEOUT_S, cwd="/")
        if result.exit_code != 0:
            why = "not a regular file, or absent" if "NIGHTSHIFT_NO_LOG" in result.stderr else \
                f"reading it failed (exit {result.exit_code}): {result.stderr.strip()[-300:]}"
            return None, why
        if result.stdout_dropped:
            return None, "a piece of it was over the exec's output cap (SandboxLimits.output_kb)"
        try:
            piece = base64.b64decode(result.stdout.strip(), validate=True)
        except (binascii.Error, ValueError):
            return None, "its bytes came back garbled"
        data += piece
        if len(piece) < CHUNK:
            break
    return data[:LOG_LIMIT], ""


def collect_agent_log(agent: InstalledAgent, sandbox: Sandbox, log: TrajectoryLog) -> None:
    """Read the agent's log, map it, and write an ``agent_log`` line and the mapped events."""
    path = agent.entry.log
    assert path is not None
    data, why = read_agent_log(sandbox, path)
    summary: dict[str, Any] = {"agent": agent.entry.name, "version": agent.version, "path": path,
                               "bytes": len(data) if data is not None else None}
    if data is None:
        log.write("agent_log", **summary, error=f"{path}: {why}")
        return
    events: list[dict[str, Any]] = []
    error = ""
    if agent.mapper is not None:
        try:
            events = list(agent.mapper(data.decode("utf-8", errors="replace")))
        except Exception as exc:  # noqa: BLE001 - a log the mapper cannot read is a note, not the trial's end
            error = f"{agent.entry.mapper} could not map it: {type(exc).__name__}: {exc}"[:500]
    kept = [e for e in events if isinstance(e, dict) and isinstance(e.get("event"), str)][:MAX_EVENTS]
    truncated = len(data) >= LOG_LIMIT
    log.write("agent_log", **summary, events=len(kept), truncated=truncated,
              **({"error": error} if error else {}))
    for event in kept:
        fields = {k: v for k, v in event.items() if k not in ("event", "t")}
        log.write(event["event"], **fields, source="agent_log")


def _tool(step: int, name: str, arguments: dict[str, Any], output: str, call_id: str) -> dict[str, Any]:
    return {"event": "tool", "step": step, "output": output[:OUTPUT_CHARS],
            "call": {"id": call_id, "type": "function",
                     "function": {"name": name, "arguments": json.dumps(arguments)}}}


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


_MINI_FENCE = re.compile(r"```mswea_bash_command\s*\n(.*?)\n```", re.DOTALL)


def mini_swe_agent(text: str) -> list[dict[str, Any]]:
    """mini-swe-agent's ``.traj.json``: each assistant message is a step; its command (from the message's
    ``extra.actions``, else its ``mswea_bash_command`` block) and the observation that follows it."""
    data = json.loads(text)
    messages = data.get("messages") if isinstance(data, dict) else None
    if not isinstance(messages, list):
        raise ValueError("no 'messages' list: not a mini-swe-agent trajectory")
    events: list[dict[str, Any]] = []
    step = 0
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        step += 1
        extra = message.get("extra") if isinstance(message.get("extra"), dict) else {}
        actions = extra.get("actions") if isinstance(extra, dict) else None
        commands = [str(a["command"]) for a in actions if isinstance(a, dict) and "command" in a] \
            if isinstance(actions, list) else []
        if not commands:
            commands = _MINI_FENCE.findall(_text(message.get("content")))
        following = messages[index + 1] if index + 1 < len(messages) else None
        output = _text(following.get("content")) if isinstance(following, dict) \
            and following.get("role") != "assistant" else ""
        if not commands:
            events.append({"event": "note", "step": step, "text": "mini-swe-agent found no command in this reply"
                           + (f": {output[:500]}" if output else "")})
        for n, command in enumerate(commands):
            events.append(_tool(step, "bash", {"command": command}, output if n == len(commands) - 1 else "",
                                f"mini-{step}-{n}"))
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    status = info.get("exit_status") if isinstance(info, dict) else None
    if status:
        events.append({"event": "note", "text": f"mini-swe-agent exit status: {status}"})
    return events


_APPLIED = re.compile(r"^(?:Applied edit to|Wrote|Creating empty file) (.+?)\s*$")


def aider_chat_history(text: str) -> list[dict[str, Any]]:
    """aider's ``.aider.chat.history.md``: ``#### `` lines are the user's message, ``> `` lines aider's own
    output (its banner, "Applied edit to FILE"), the rest the model's replies. Each reply is a step; what aider
    did after it (the files it wrote, its messages) is that step's ``edit`` call."""
    turns: list[tuple[list[str], list[str]]] = []  # (reply lines, aider's output lines after it)
    banner: list[str] = []
    reply: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("#### "):
            reply = None
        elif line.startswith(">"):
            target = turns[-1][1] if turns and reply is not None else banner
            target.append(line[1:].strip())
        elif reply is None and line.strip() and not line.startswith("# aider chat started"):
            reply = [line]
            turns.append((reply, []))
        elif reply is not None:
            reply.append(line)
    events: list[dict[str, Any]] = []
    if banner:
        events.append({"event": "note", "text": "aider: " + " | ".join(b for b in banner if b)[:2000]})
    for step, (_, said) in enumerate(turns, start=1):
        files = [m.group(1) for m in map(_APPLIED.match, said) if m]
        output = "\n".join(s for s in said if s)
        events.append(_tool(step, "edit", {"files": files}, output or "(no edits applied)", f"aider-{step}"))
    return events


_GPTME_CALL = re.compile(r"@([A-Za-z_][\w-]*)\(([^)\s]*)\):")


def gptme_conversation(text: str) -> list[dict[str, Any]]:
    """gptme's ``conversation.jsonl``: each assistant message is a step; its function calls are written into
    the text as ``@tool(call_id): {json arguments}``, and each call's output is the following ``system``
    message carrying that ``call_id``."""
    messages = [json.loads(line) for line in text.splitlines() if line.strip()]
    outputs = {str(m["call_id"]): _text(m.get("content")) for m in messages
               if isinstance(m, dict) and m.get("role") == "system" and m.get("call_id")}
    events: list[dict[str, Any]] = []
    step = 0
    decoder = json.JSONDecoder()
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        step += 1
        content = _text(message.get("content"))
        found = 0
        for match in _GPTME_CALL.finditer(content):
            rest = content[match.end():].lstrip()
            try:
                arguments, _ = decoder.raw_decode(rest)
            except ValueError:
                arguments = {"text": rest[:OUTPUT_CHARS]}
            call_id = match.group(2) or f"gptme-{step}-{found}"
            events.append(_tool(step, match.group(1), arguments if isinstance(arguments, dict) else
                                {"value": arguments}, outputs.get(call_id, ""), call_id))
            found += 1
        if not found:
            events.append({"event": "note", "step": step, "text": content[:OUTPUT_CHARS]})
    return events
