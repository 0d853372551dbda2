"""Fast checks for the two vendor CLIs' parts that need no sandbox: the simulator picks each CLI's shell tool by
its schema and ends without a submit tool the way the CLIs end; each CLI's own log maps onto tool/note events;
the collectors (the `log:` block's and the catalogue's log folder) never follow a link the agent planted."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from pydantic import ValidationError

from nightshift.experiment.config import HarnessSpec
from nightshift.harnesses.agent_catalogue import CATALOGUE
from nightshift.harnesses.agent_logs import claude_code_events, claude_code_log, codex_events, codex_log, collect
from nightshift.harnesses.catalogue import InstalledAgent
from nightshift.harnesses.catalogue_logs import collect_agent_log
from nightshift.models import ExecResult
from nightshift.protocols import MESSAGES
from nightshift.simulator.policy import Action, tool_call_for
from nightshift.trajectory import TrajectoryLog, event_problems
from nightshift.viewer.steps import read_trajectory

RUN = Action("bash", "Checking.", "ls -la")


def _tool(name: str, properties: dict) -> dict:
    return {name: {"type": "object", "properties": properties}}


def test_the_shell_tool_of_each_cli_is_played_by_its_schema() -> None:
    assert tool_call_for(RUN, _tool("Bash", {"command": {"type": "string"}, "timeout": {}})) == (
        "Bash", json.dumps({"command": "ls -la"}))
    assert tool_call_for(RUN, {**_tool("write_stdin", {"chars": {}}), **_tool("exec_command", {
        "cmd": {"type": "string"}, "workdir": {}})}) == ("exec_command", json.dumps({"cmd": "ls -la"}))
    assert json.loads(tool_call_for(RUN, _tool("exec_command", {"cmd": {}, "yield_time_ms": {}}))[1]) == {
        "cmd": "ls -la", "yield_time_ms": 30000}  # waits for the command instead of polling write_stdin
    assert tool_call_for(RUN, _tool("shell", {"command": {"type": "array", "items": {"type": "string"}}})) == (
        "shell", json.dumps({"command": ["bash", "-lc", "ls -la"]}))
    # nightshift's own bash wins over a CLI's; an unknown tool set carries nothing
    assert tool_call_for(RUN, {**_tool("Bash", {"command": {}}), **_tool("bash", {"command": {}})})[0] == "bash"
    assert tool_call_for(RUN, _tool("Read", {"file_path": {}})) is None
    assert tool_call_for(Action("submit", "Done."), _tool("Bash", {"command": {}})) is None


def test_a_system_turn_inside_messages_is_a_chat_system_message() -> None:
    chat = MESSAGES.to_chat({"model": "m", "max_tokens": 8, "messages": [
        {"role": "user", "content": "hi"}, {"role": "system", "content": [{"type": "text", "text": "# Env"}]}]})
    assert chat["messages"] == [{"role": "user", "content": "hi"}, {"role": "system", "content": "# Env"}]


def _fits(events: list[dict]) -> None:
    for event in events:
        assert event_problems(event) == [], event


def test_codex_session_items_map_to_tool_and_note_events() -> None:
    items = [{"type": "session_meta", "payload": {"id": "s"}},
             {"type": "response_item", "payload": {"type": "message", "role": "user", "content": [
                 {"type": "input_text", "text": "fix it"}]}},
             {"type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [
                 {"type": "output_text", "text": "Looking."}]}},
             {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command",
                                                   "arguments": "{\"cmd\":\"ls\"}", "call_id": "call_1"}},
             {"type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_1",
                                                   "output": "a.py\n"}},
             {"type": "response_item", "payload": {"type": "function_call", "name": "exec_command",
                                                   "arguments": "{\"cmd\":\"cat a.py\"}", "call_id": "call_2"}}]
    events = list(codex_events(items))
    _fits(events)
    assert [(e["event"], e["step"]) for e in events] == [("note", 1), ("tool", 1), ("tool", 2)]
    assert events[1]["call"]["id"] == "call_1" and events[1]["output"] == "a.py\n"
    assert events[2]["output"] == ""  # no output logged: the trial ended first


def test_claude_code_transcript_maps_to_tool_and_note_events() -> None:
    def assistant(mid: str, block: dict) -> dict:
        return {"type": "assistant", "message": {"id": mid, "role": "assistant", "content": [block]}}

    records = [{"type": "user", "message": {"role": "user", "content": "fix it"}},
               assistant("m1", {"type": "text", "text": "Looking."}),
               assistant("m1", {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}),
               {"type": "user", "message": {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "a.py"}]}]}},
               {"type": "assistant", "isSidechain": True, "message": {"id": "x", "content": "a sub-agent"}},
               assistant("m2", {"type": "text", "text": "Done."})]
    events = list(claude_code_events(records))
    _fits(events)
    assert [(e["event"], e["step"]) for e in events] == [("note", 1), ("tool", 1), ("note", 2)]
    assert events[1]["call"]["function"] == {"name": "Bash", "arguments": {"command": "ls"}}
    assert events[1]["output"] == "a.py"


def test_the_collector_reads_jsonl_below_the_folder_and_follows_no_link(tmp_path: Path) -> None:
    tmp = tmp_path / "tmp"
    logs = tmp / "codex-home" / "sessions" / "2026"
    logs.mkdir(parents=True)
    (logs / "rollout-1.jsonl").write_text('{"type": "a"}\nnot json\n{"type": "b"}\n')
    secret = tmp_path / "host-secret.jsonl"
    secret.write_text('{"type": "secret"}\n')
    os.symlink(secret, logs / "rollout-2.jsonl")
    records, files, problems = collect(tmp, "/tmp/codex-home/sessions")
    assert [r["type"] for r in records] == ["a", "b"]
    assert files == ["/tmp/codex-home/sessions/2026/rollout-1.jsonl"]
    assert any("rollout-1.jsonl:2: not JSON" in p for p in problems)
    assert any("rollout-2.jsonl" in p for p in problems)  # the link is named, never read
    # the folder itself a link out of /tmp: refused
    os.symlink(tmp_path, tmp / "claude-config")
    assert collect(tmp, "/tmp/claude-config")[2][0].endswith("resolves outside the sandbox's /tmp; not read")
    assert collect(tmp, "/tmp/nothing-here")[2] == ["/tmp/nothing-here: no such folder (the agent wrote no log)"]


def test_the_viewer_draws_a_mapped_log_once_beside_the_proxy_record(tmp_path: Path) -> None:
    call = {"id": "c1", "type": "function", "function": {"name": "Bash", "arguments": "{\"command\": \"ls\"}"}}
    lines = [{"event": "model", "step": 1,
              "message": {"role": "assistant", "content": "Looking.", "tool_calls": [call]}},
             {"event": "model", "step": 2, "message": {"role": "assistant", "content": "Done."},
              "request": {"messages": [{"role": "tool", "tool_call_id": "c1", "content": "a.py"}]}},
             {"event": "agent_log", "format": "claude-code", "files": ["/tmp/x.jsonl"]},
             {"event": "note", "step": 1, "source": "claude-code", "text": "Looking."},
             {"event": "tool", "step": 1, "source": "claude-code", "call": call, "output": "a.py"},
             {"event": "tool", "step": 2, "source": "claude-code", "output": "late", "call": {
                 **call, "id": "c2"}}]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    steps = read_trajectory(path)["steps"]
    assert [(c["id"], c["output"]) for c in steps[0]["calls"]] == [("c1", "a.py")] and steps[0]["notes"] == []
    assert [(c["id"], c["output"]) for c in steps[1]["calls"]] == [("c2", "late")]  # only the log knew it


def test_a_log_outside_tmp_or_on_another_kind_is_refused_naming_the_field() -> None:
    with pytest.raises(ValidationError, match=r"log\.path"):
        HarnessSpec.model_validate({"kind": "command", "run": "x", "log": {"format": "codex", "path": "/etc"}})
    with pytest.raises(ValidationError, match="install/run/env/log belong to kind 'command'"):
        HarnessSpec.model_validate({"kind": "reference", "log": {"format": "codex", "path": "/tmp/x"}})
    with pytest.raises(ValidationError, match=r"log\.format"):
        HarnessSpec.model_validate({"kind": "command", "run": "x", "log": {"format": "aider", "path": "/tmp/x"}})


class ShellSandbox:
    """Runs the reader's execs in a real bash on the host, inside tmp_path: the folder branch is shell."""

    def __init__(self, root: Path):
        self.root = root

    def exec(self, command: str, timeout_s: float, cwd: str = "/", env=None) -> ExecResult:
        done = subprocess.run(["bash", "-c", command.replace("/tmp/", f"{self.root}/")], capture_output=True,
                              text=True, timeout=timeout_s)
        return ExecResult(exit_code=done.returncode, stdout=done.stdout, stderr=done.stderr, duration_s=0.0)


def test_the_catalogue_reads_a_log_folder_in_order_and_follows_no_link(tmp_path: Path) -> None:
    """Codex's and Claude Code's catalogue entries name a folder: its *.jsonl files, in path order, each ended
    by a newline, a planted link to a file or folder outside never read, other files ignored."""
    sessions = tmp_path / "codex-home" / "sessions"
    (sessions / "2026" / "12").mkdir(parents=True)
    call = {"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\":\"ls\"}", "call_id": "c1"}
    out = {"type": "function_call_output", "call_id": "c1", "output": "a.py\n"}
    (sessions / "2026" / "12" / "rollout-b.jsonl").write_text(json.dumps({"type": "response_item", "payload": out}))
    (sessions / "2026" / "12" / "rollout-a.jsonl").write_text(json.dumps({"type": "response_item", "payload": call})
                                                              + "\ncut off mid-wr")  # no final newline
    (sessions / "notes.txt").write_text("not a log")
    secret = tmp_path.parent / f"{tmp_path.name}-secret"
    secret.mkdir(exist_ok=True)
    (secret / "s.jsonl").write_text('{"type": "response_item", "payload": {"type": "message", "role": '
                                    '"assistant", "content": "HOST SECRET"}}\n')
    os.symlink(secret / "s.jsonl", sessions / "2026" / "link.jsonl")
    os.symlink(secret, sessions / "linked-folder")
    entry = CATALOGUE.codex
    agent = InstalledAgent(entry, "0.163.0", codex_log)
    with TrajectoryLog(tmp_path / "t.jsonl") as log:
        collect_agent_log(agent, ShellSandbox(tmp_path), log)  # type: ignore[arg-type]
    lines = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert lines[0]["event"] == "agent_log" and lines[0]["path"] == "/tmp/codex-home/sessions/", lines
    assert "error" not in lines[0] and lines[0]["events"] == 1
    tool = lines[1]
    assert tool["event"] == "tool" and tool["source"] == "agent_log" and tool["format"] == "codex"
    assert tool["call"]["id"] == "c1" and tool["output"] == "a.py\n"  # the two files met in order
    assert "HOST SECRET" not in (tmp_path / "t.jsonl").read_text()
    _fits(lines[1:])
    # the folder itself a link: not read at all
    os.symlink(secret, tmp_path / "claude-config")
    claude = InstalledAgent(getattr(CATALOGUE, "claude-code"), "0.2.184", claude_code_log)
    with TrajectoryLog(tmp_path / "c.jsonl") as log:
        collect_agent_log(claude, ShellSandbox(tmp_path), log)  # type: ignore[arg-type]
    first = json.loads((tmp_path / "c.jsonl").read_text().splitlines()[0])
    assert "not a regular file, or absent" in first["error"], first
