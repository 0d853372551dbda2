"""An agent CLI's own log, collected at the end of a command harness's trial and mapped onto trajectory events.

The proxy already records every model call (``model`` lines); the CLI's log adds what only the agent saw: each
tool call's output and its text between calls. Each mapper turns one format's JSONL records into ``tool``
events (the call, with the id the proxy's ``model`` line shows, and its output) and ``note`` events (the
agent's text), numbered by the CLI's own turns, each marked ``source: <format>``:

* ``codex``: Codex CLI's session files (CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl): ``response_item``
  records holding Responses items (assistant ``message``, ``function_call``, ``function_call_output``).
* ``claude-code``: Claude Code's transcript (CLAUDE_CONFIG_DIR/projects/<cwd slug>/<session>.jsonl):
  ``assistant`` records (one per content block: ``text``, ``tool_use``; blocks of one API message share
  ``message.id``) and ``user`` records whose ``tool_result`` blocks answer them.

The files are read from the host side of the sandbox's /tmp after the agent has exited, never through a
symlink, each at most MAX_FILE_BYTES: the agent may have written anything there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from nightshift.sandbox.paths import SandboxPathError, read_regular

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_FILES = 64
OUTPUT_CHARS = 8000  # of one tool output, as the reference loop keeps


def collect(tmp_root: Path, sandbox_folder: str) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """(records, files read, problems) of every *.jsonl below ``sandbox_folder`` (under /tmp) in the
    sandbox whose /tmp is ``tmp_root`` on the host; files in name order, records in file order."""
    rel = sandbox_folder.removeprefix("/tmp").strip("/")
    root = tmp_root.resolve()
    start = Path(os.path.realpath(root / rel))
    if start != root and root not in start.parents:
        return [], [], [f"{sandbox_folder}: resolves outside the sandbox's /tmp; not read"]
    if not start.is_dir():
        return [], [], [f"{sandbox_folder}: no such folder (the agent wrote no log)"]
    found: list[Path] = []
    for folder, dirs, files in os.walk(start, followlinks=False):
        dirs.sort()
        found += [Path(folder) / name for name in sorted(files) if name.endswith(".jsonl")]
    records: list[dict[str, Any]] = []
    problems: list[str] = []
    read: list[str] = []
    for path in found[:MAX_FILES]:
        shown = "/tmp/" + str(path.relative_to(root))
        try:
            text = read_regular(path, MAX_FILE_BYTES).decode("utf-8", "replace")
        except (OSError, SandboxPathError) as exc:  # a symlink, a FIFO, a giant: named, not followed
            problems.append(f"{shown}: {exc}")
            continue
        read.append(shown)
        for number, line in enumerate(text.splitlines(), 1):
            try:
                record = json.loads(line)
            except ValueError:
                problems.append(f"{shown}:{number}: not JSON")
                continue
            if isinstance(record, dict):
                records.append(record)
    if len(found) > MAX_FILES:
        problems.append(f"{len(found) - MAX_FILES} more files not read (at most {MAX_FILES})")
    return records, read, problems


def _text(content: object) -> str:
    """The text of a string or of a list of text-like parts/blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_text(p.get("text", p.get("content", ""))) if isinstance(p, dict) else str(p) for p in content)
    return "" if content is None else json.dumps(content)


def _tool(step: int, call_id: object, name: object, arguments: object, output: str, source: str) -> dict[str, Any]:
    args = arguments if isinstance(arguments, str | dict) else json.dumps(arguments)
    return {"event": "tool", "step": step, "source": source, "output": output[-OUTPUT_CHARS:],
            "call": {"id": str(call_id), "type": "function", "function": {"name": str(name), "arguments": args}}}


def codex_events(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Codex session records → tool and note events (a turn: the items after the last tool output or user
    message)."""
    step, in_turn = 0, False
    calls: dict[str, dict[str, Any]] = {}
    for record in records:
        item = record.get("payload") if record.get("type") == "response_item" else None
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if kind in ("function_call", "custom_tool_call") or (kind == "message" and item.get("role") == "assistant"):
            if not in_turn:
                step, in_turn = step + 1, True
            if kind == "message":
                text = _text(item.get("content"))
                if text:
                    yield {"event": "note", "step": step, "source": "codex", "text": text}
            else:
                calls[str(item.get("call_id"))] = {"step": step, "name": item.get("name"),
                                                   "arguments": item.get("arguments", item.get("input", ""))}
        elif kind in ("function_call_output", "custom_tool_call_output"):
            in_turn = False
            call_id = str(item.get("call_id"))
            call = calls.pop(call_id, {"step": max(step, 1), "name": "?", "arguments": ""})
            output = item.get("output")
            shown = output.get("content") if isinstance(output, dict) else output
            yield _tool(call["step"], call_id, call["name"], call["arguments"], _text(shown), "codex")
        elif kind == "message":
            in_turn = False
    for call_id, call in calls.items():  # calls the log shows no output for (the trial ended first)
        yield _tool(call["step"], call_id, call["name"], call["arguments"], "", "codex")


def claude_code_events(records: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Claude Code transcript records → tool and note events (a turn: one API message id)."""
    step, current = 0, None
    calls: dict[str, dict[str, Any]] = {}
    for record in records:
        message = record.get("message")
        if not isinstance(message, dict) or record.get("isSidechain"):
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        if record.get("type") == "assistant":
            if message.get("id") != current:
                step, current = step + 1, message.get("id")
            for block in blocks:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "text" and block.get("text"):
                    yield {"event": "note", "step": step, "source": "claude-code", "text": str(block["text"])}
                elif block.get("type") == "tool_use":
                    calls[str(block.get("id"))] = {"step": step, "name": block.get("name"),
                                                   "arguments": block.get("input") or {}}
        elif record.get("type") == "user":
            for block in blocks:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    call_id = str(block.get("tool_use_id"))
                    call = calls.pop(call_id, {"step": max(step, 1), "name": "?", "arguments": ""})
                    yield _tool(call["step"], call_id, call["name"], call["arguments"], _text(block.get("content")),
                                "claude-code")
    for call_id, call in calls.items():
        yield _tool(call["step"], call_id, call["name"], call["arguments"], "", "claude-code")


def _records(text: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL text; a line that is not one (a file cut off mid-write) is skipped."""
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            yield record


def _as_catalogue_mapper(events: Iterator[dict[str, Any]], source: str) -> list[dict[str, Any]]:
    # the catalogue marks every mapped line source: agent_log and says which agent in its agent_log line
    return [{k: v for k, v in event.items() if k != "source"} | {"format": source} for event in events]


def codex_log(text: str) -> list[dict[str, Any]]:
    """The catalogue's mapper of Codex's session files (its entry's log is the sessions folder)."""
    return _as_catalogue_mapper(codex_events(_records(text)), "codex")


def claude_code_log(text: str) -> list[dict[str, Any]]:
    """The catalogue's mapper of Claude Code's transcripts (its entry's log is the projects folder)."""
    return _as_catalogue_mapper(claude_code_events(_records(text)), "claude-code")


MAPPERS: dict[str, Callable[[Iterable[dict[str, Any]]], Iterator[dict[str, Any]]]] = {
    "codex": codex_events, "claude-code": claude_code_events}
