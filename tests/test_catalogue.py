"""The catalogue of installed agents: resolution, its errors before any trial, a team's own entry, the log mappers
and the simulator's whole-file replies for aider. Fast: nothing is installed or run in a sandbox here."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest

from nightshift.experiment.config import ExperimentError, HarnessSpec
from nightshift.harnesses.agent_catalogue import CATALOGUE
from nightshift.harnesses.catalogue import InstalledAgent
from nightshift.harnesses.catalogue_logs import (
    aider_chat_history,
    collect_agent_log,
    gptme_conversation,
    mini_swe_agent,
)
from nightshift.harnesses.resolve import resolve_harness
from nightshift.models import ExecResult
from nightshift.plugins import AGENTS
from nightshift.preflight import check_experiment
from nightshift.simulator.cases import CaseBrief
from nightshift.simulator.edit_formats import NOT_EXPRESSIBLE, solution_files
from nightshift.simulator.policy import SUBMIT, Action, Plan, decide, reply, tool_call_for
from nightshift.trajectory import TrajectoryLog

TEAM_AGENT = """
agents:
  - name: shell-agent                  # not in the catalogue
    protocol: chat
    versions: ["1.0.0"]
    install: ["pip install shell-agent=={version}"]
    run: "shell-agent --model {model} --style {style} --task {instruction_file}"
    settings: {style: terse}
    env: {SHELL_AGENT_TELEMETRY: "off"}
    log: /tmp/shell-agent.jsonl
    mapper: nightshift.harnesses.catalogue_logs:mini_swe_agent
"""


def write(tmp_path: Path, harness: str, extra: str = "") -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(f"name: x\nvariants:\n  - name: a\n    model: sim-strong\n    harness: {harness}\n{extra}")
    return path


@pytest.mark.parametrize(("harness", "field", "says"), [
    ("{kind: installed, name: aidr, version: 0.86.2}", "name",
     "no agent 'aidr' in the catalogue (did you mean 'aider'?); known: aider, claude-code, codex, gptme, "
     "mini-swe-agent, openhands"),
    ("{kind: installed, name: aider, version: 0.85.0}", "version", "agent 'aider' pins 0.86.2, not '0.85.0'"),
    ("{kind: installed, name: openhands, version: 1.11.0}", "name", "Requires-Python >=3.12"),
    ("{kind: installed, name: aider, version: 0.86.2, settings: {edit_fromat: diff}}", "settings.edit_fromat",
     "did you mean 'edit_format'?"),
])
def test_a_bad_installed_agent_is_refused_before_any_trial(tmp_path: Path, harness: str, field: str,
                                                           says: str) -> None:
    path = write(tmp_path, harness)
    with pytest.raises(ExperimentError) as caught:
        check_experiment(path)
    text = str(caught.value)
    assert str(path) in text and f"field 'variants.0.harness.{field}'" in text and says in text, text


def test_installed_needs_name_and_version_and_takes_no_run(tmp_path: Path) -> None:
    for harness, says in [("{kind: installed, name: aider}", "needs name and version"),
                          ("{kind: installed, name: aider, version: 0.86.2, run: x}", "takes its run line"),
                          ("{kind: command, run: x, name: aider}", "name/version belong to kind 'installed'")]:
        with pytest.raises(ExperimentError, match=says):
            check_experiment(write(tmp_path, harness))


def test_every_builtin_entry_resolves_to_a_pinned_command_harness() -> None:
    assert AGENTS.names() == sorted(vars(CATALOGUE))
    for name, entry in vars(CATALOGUE).items():
        assert entry.versions and all(v[0].isdigit() for v in entry.versions), name
        if entry.refused:
            continue
        resolved = resolve_harness(HarnessSpec(kind="installed", name=name, version=entry.versions[0]))
        assert resolved.spec.kind == "command" and resolved.agent is not None
        assert any(f"=={entry.versions[0]}" in line for line in resolved.spec.install), resolved.spec.install
        left = set(re.findall(r"\{([a-z_]+)\}", resolved.spec.run))  # only nightshift's own placeholders stay
        assert left <= {"model", "instruction_file", "base_url", "workspace"}, (name, left)
        assert resolved.identity["protocol"] == entry.protocol and resolved.identity["version"] == entry.versions[0]
        assert resolved.agent.mapper is not None


def test_mini_keeps_the_install_lines_of_the_hand_written_block() -> None:
    """The same lines as before the catalogue: the same content key, so a cached derived image is reused."""
    install = resolve_harness(HarnessSpec(kind="installed", name="mini-swe-agent", version="2.4.6")).spec.install
    assert install[1] == ("python3 -m venv /opt/mini-swe-agent && /opt/mini-swe-agent/bin/pip install -q "
                          "mini-swe-agent==2.4.6")


def test_a_team_adds_an_agent_the_catalogue_does_not_know(tmp_path: Path) -> None:
    harness = ("{kind: installed, name: shell-agent, version: 1.0.0, settings: {style: chatty}, "
               "env: {EXTRA: '1'}, install: ['echo extra']}")
    checked = check_experiment(write(tmp_path, harness, TEAM_AGENT))
    resolved = checked.harnesses["a"]
    assert resolved.spec.install == ["pip install shell-agent==1.0.0", "echo extra"]
    assert resolved.spec.run == "shell-agent --model {model} --style chatty --task {instruction_file}"
    assert resolved.spec.env == {"SHELL_AGENT_TELEMETRY": "off", "EXTRA": "1"}
    assert resolved.identity["source"] == "experiment agents:" and resolved.identity["name"] == "shell-agent"
    # the variant carries the entry, so a shard worker that gets only the variant resolves the same agent
    assert checked.exp.variants[0].harness.entry is not None


def test_a_team_overrides_a_builtin_entry_by_name(tmp_path: Path) -> None:
    override = TEAM_AGENT.replace("shell-agent", "aider").replace('"1.0.0"', '"0.87.0"')
    resolved = check_experiment(write(tmp_path, "{kind: installed, name: aider, version: 0.87.0}",
                                      override)).harnesses["a"]
    assert resolved.spec.install == ["pip install aider==0.87.0"]
    assert resolved.identity["source"] == "experiment agents:"


def test_a_bad_team_entry_names_its_field(tmp_path: Path) -> None:
    bad = TEAM_AGENT.replace("protocol: chat", "protocol: grpc")
    with pytest.raises(ExperimentError, match=r"agents\.0\.protocol"):
        check_experiment(write(tmp_path, "{kind: installed, name: shell-agent, version: 1.0.0}", bad))


MINI_TRAJ = {"info": {"exit_status": "Submitted"}, "messages": [
    {"role": "system", "content": "sys"}, {"role": "user", "content": "task"},
    {"role": "assistant", "content": "THOUGHT: look\n\n```mswea_bash_command\nls -la\n```"},
    {"role": "user", "content": "<returncode>0</returncode>\n<output>a.py</output>"},
    {"role": "assistant", "content": "no block here"}, {"role": "user", "content": "Format error"},
    {"role": "assistant", "content": "x",
     "extra": {"actions": [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}]}},
]}


def test_mini_mapper_makes_one_bash_call_per_step_with_its_observation() -> None:
    events = mini_swe_agent(json.dumps(MINI_TRAJ))
    tools = [e for e in events if e["event"] == "tool"]
    assert [(e["step"], json.loads(e["call"]["function"]["arguments"])["command"]) for e in tools] == [
        (1, "ls -la"), (3, "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT")]
    assert "a.py" in tools[0]["output"]
    assert any(e["event"] == "note" and e.get("step") == 2 for e in events)
    assert events[-1]["text"].endswith("Submitted")


AIDER_HISTORY = """
# aider chat started at 2026-12-03 13:40:00

> aider --model openai/sim-strong
> Aider v0.86.2

#### Fix the roman numerals.

Here are the updated files.

roman.py
```
print(1)
```

> Applied edit to roman.py

#### lint says nothing

The requested changes are complete.
"""


def test_aider_mapper_makes_one_edit_call_per_reply() -> None:
    events = aider_chat_history(AIDER_HISTORY)
    assert events[0]["event"] == "note" and "Aider v0.86.2" in events[0]["text"]
    edits = [e for e in events if e["event"] == "tool"]
    assert [(e["step"], json.loads(e["call"]["function"]["arguments"])["files"]) for e in edits] == [
        (1, ["roman.py"]), (2, [])]


def _gptme_log(*messages: dict) -> str:
    return "".join(json.dumps(m) + "\n" for m in messages)


def test_gptme_mapper_reads_the_calls_written_into_its_messages() -> None:
    text = _gptme_log(
        {"role": "system", "content": "You are gptme"},
        {"role": "user", "content": "fix it"},
        {"role": "assistant", "content": 'Looking.\n@shell(call_a): {"command": "ls -la"}'},
        {"role": "system", "content": "Ran command: `ls -la`\n\nmain.py", "call_id": "call_a"},
        {"role": "assistant", "content": "Thinking about it."},  # no call: a note of its step
        {"role": "assistant", "content": "@shell(call_b): {not json"},  # kept, its text as the argument
        {"role": "assistant", "content": "Done.\n@complete(call_c):\n{}"},
        {"role": "system", "content": "Task complete.", "call_id": "call_c"})
    events = gptme_conversation(text)
    assert [(e["event"], e["step"]) for e in events] == [("tool", 1), ("note", 2), ("tool", 3), ("tool", 4)]
    assert events[0]["call"]["id"] == "call_a" and events[0]["output"].endswith("main.py")
    assert json.loads(events[0]["call"]["function"]["arguments"]) == {"command": "ls -la"}
    assert json.loads(events[2]["call"]["function"]["arguments"]) == {"text": "{not json"}
    assert events[3]["call"]["function"]["name"] == "complete" and events[3]["output"] == "Task complete."
    with pytest.raises(ValueError):
        gptme_conversation("not json\n")  # a note on the agent_log line, by collect_agent_log


def test_the_simulator_submits_with_gptmes_complete_tool_when_offered() -> None:
    shell = {"shell": {"type": "object", "properties": {"command": {"type": "string"}}}}
    assert tool_call_for(SUBMIT, {**shell, "complete": {"type": "object", "properties": {}}}) == ("complete", "{}")
    assert tool_call_for(SUBMIT, {**shell, "complete": {}, "submit": {}}) == ("submit", "{}")  # its own first
    assert tool_call_for(SUBMIT, shell) is None  # no tool: a final text reply, as the vendors' CLIs end
    assert tool_call_for(Action("bash", "x", "ls"), {**shell, "complete": {}}) == ("shell", '{"command": "ls"}')


class FakeSandbox:
    """Serves `data` to the reader's `tail -c +N | head -c M | base64` execs (None: no such regular file)."""

    def __init__(self, data: bytes | None):
        self.data, self.commands = data, []

    def exec(self, command: str, timeout_s: float, cwd: str = "/workspace", env=None) -> ExecResult:
        self.commands.append(command)
        if self.data is None:
            return ExecResult(exit_code=3, stdout="", stderr="NIGHTSHIFT_NO_LOG", duration_s=0.01)
        start, size = (int(n) for n in re.search(r"tail -c \+(\d+) .* head -c (\d+)", command).groups())
        piece = base64.b64encode(self.data[start - 1:start - 1 + size]).decode()
        return ExecResult(exit_code=0, stdout=piece, stderr="", duration_s=0.01)


def collect(tmp_path: Path, data: bytes | None) -> tuple[list[dict], FakeSandbox]:
    sandbox = FakeSandbox(data)
    entry = getattr(CATALOGUE, "mini-swe-agent")
    with TrajectoryLog(tmp_path / "t.jsonl") as log:
        collect_agent_log(InstalledAgent(entry, "2.4.6", mini_swe_agent), sandbox, log)  # type: ignore[arg-type]
    return [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()], sandbox


@pytest.mark.parametrize(("data", "says"), [
    (None, "not a regular file, or absent"),          # missing, a symlink, a FIFO: never read
    (b"not json", "could not map it: JSONDecodeError"),  # the mapper's failure is a note, not the trial's end
])
def test_a_missing_or_hostile_log_is_a_note_not_the_trials_end(tmp_path: Path, data: bytes | None,
                                                               says: str) -> None:
    lines, sandbox = collect(tmp_path, data)
    assert lines[0]["event"] == "agent_log" and says in lines[0]["error"], lines
    assert "[ ! -L" in sandbox.commands[0] and "head -c" in sandbox.commands[0]


def test_a_log_larger_than_one_execs_output_is_read_in_pieces(tmp_path: Path) -> None:
    """A 30-step mini trajectory is ~100 kB; each exec's output is capped at 64 KiB by default."""
    traj = {**MINI_TRAJ, "messages": MINI_TRAJ["messages"] + [{"role": "user", "content": "x" * 150_000}]}
    lines, sandbox = collect(tmp_path, json.dumps(traj).encode())
    assert len(sandbox.commands) == 4 and "error" not in lines[0], lines[0]
    assert lines[0]["bytes"] == len(json.dumps(traj)) and lines[0]["events"] == 4


def test_simulator_answers_aider_whole_format_from_the_solution() -> None:
    solution = "#!/bin/bash\nset -e\nmkdir -p q\ncat > q/a.sql <<'EOF'\nSELECT 1;\nEOF\ngrep -q SELECT q/a.sql\n"
    assert solution_files(solution) == {"q/a.sql": "SELECT 1;\n"}
    assert solution_files("sed -i 's/a/b/' x.py\n") is None
    brief = CaseBrief(id="c1", instruction="Write the query.", solution=solution)
    solves = next(seed for seed in range(50) if decide("sim-strong", "c1", seed) is Plan.solve)
    fails = next(seed for seed in range(50) if decide("sim-strong", "c1", seed) is not Plan.solve)
    system = {"role": "system", "content": "You MUST use this *file listing* format:"}
    asked = [system, {"role": "user", "content": "Write the query."}]
    text = reply("sim-strong", brief, solves, asked).content
    assert "q/a.sql\n```\nSELECT 1;\n```" in text and reply("sim-strong", brief, solves, asked).finish_reason == "stop"
    assert reply("sim-strong", brief, fails, asked).content == "No changes are needed."
    again = reply("sim-strong", brief, solves, [*asked, {"role": "assistant", "content": text},
                                                {"role": "user", "content": "lint output"}])
    assert again.content == "The requested changes are complete."
    sed_case = CaseBrief(id="c1", instruction="Write the query.", solution="sed -i s/a/b/ x\n")
    assert reply("sim-strong", sed_case, solves, asked).content == NOT_EXPRESSIBLE
    # without the whole-format prompt the same request is mini's text protocol, as before
    assert "mswea_bash_command" in reply("sim-strong", brief, solves, asked[1:]).content
