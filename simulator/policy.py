"""The stand-in agent: which tool call a simulated model makes at each step of a trial.

Pure and deterministic given (model, case, seed, conversation so far); no I/O, no clock.

* Each model has a skill; each case a difficulty in [0, 1) hashed from its id. The chance that a trial
  solves the case is ``logistic(STEEPNESS * (skill - difficulty))``.
* The trial's plan (solve / wrong / wander) is drawn once from an RNG seeded by
  ``sha256(model, case id, seed)``, so every call of the same trial agrees on it.
* The step is the number of assistant messages already in the conversation; the plan says what to do
  at that step. solve: explore, run the oracle (solve.sh), check, submit. wrong: explore, a plausible
  edit that cannot fix anything, submit. wander: harmless exploration forever (the harness's step limit
  ends it).
* The tools a CLI offers are played too: a ``bash`` action goes to ``bash`` or else to the first shell tool of
  a known CLI (Claude Code's ``Bash``, Codex's ``exec_command``/``shell_command``/``shell``), its command in
  the property that tool's schema names (``command`` or ``cmd``; an argv array where the schema asks for one).
  Without a ``submit`` tool, submitting is a final text reply with no tool call: how those CLIs end a turn.
* ``temperature`` matters: above 0 the plan's draw is shifted by seeded noise (from model, case, seed and
  the temperature) whose spread grows with the temperature, so a variant that changes only the
  temperature really behaves differently; at 0 the draw is exactly the seed's. ``top_p`` is ignored.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import shlex
from dataclasses import dataclass
from enum import StrEnum

from nightshift.simulator.cases import CaseBrief, message_text
from nightshift.simulator.edit_formats import asks_for_whole_files, whole_reply

SNAPSHOT_DATE = "2026-11-01"
STEEPNESS = 8.0
COMMENT_SUFFIXES = (".py", ".sh", ".toml", ".yaml", ".yml", ".cfg", ".rb", ".r", ".pl")


@dataclass(frozen=True)
class ModelProfile:
    """A simulated model: its skill (solve chance is higher the higher it is) and how often it wanders."""

    name: str
    skill: float
    wander: float

    @property
    def snapshot(self) -> str:
        """The dated snapshot the alias points at; responses name it in their ``model`` field."""
        return f"{self.name}-{SNAPSHOT_DATE}"


MODELS: dict[str, ModelProfile] = {p.name: p for p in (
    ModelProfile("sim-strong", skill=0.82, wander=0.04),
    ModelProfile("sim-medium", skill=0.60, wander=0.06),
    ModelProfile("sim-weak", skill=0.40, wander=0.08),
)}


class Plan(StrEnum):
    solve = "solve"
    wrong = "wrong"
    wander = "wander"


@dataclass(frozen=True)
class Action:
    """One step of the agent: a tool call (``bash`` with a command, or ``submit``) and its reasoning text."""

    tool: str
    content: str
    command: str | None = None

    @property
    def arguments(self) -> str:
        return json.dumps({"command": self.command}) if self.tool == "bash" else "{}"


@dataclass(frozen=True)
class Reply:
    """The assistant message the server returns: text, at most one tool call, and the finish reason."""

    content: str
    finish_reason: str
    tool_call: dict | None = None


def resolve_model(name: str) -> ModelProfile | None:
    """The profile for an alias (``sim-strong``) or a dated snapshot (``sim-strong-2026-11-01``)."""
    if name in MODELS:
        return MODELS[name]
    for profile in MODELS.values():
        if name == profile.snapshot:
            return profile
    return None


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("\0".join(str(p) for p in parts).encode()).digest()


def difficulty(case_id: str) -> float:
    """The case's difficulty in [0, 1), the same for every model and seed."""
    return int.from_bytes(_digest("difficulty", case_id)[:8], "big") / 2**64


def solve_probability(model: str, case_id: str) -> float:
    """Chance that one trial of ``model`` on the case solves it."""
    profile = resolve_model(model)
    if profile is None:
        raise KeyError(f"unknown simulated model {model!r}; known: {sorted(MODELS)}")
    return 1.0 / (1.0 + math.exp(-STEEPNESS * (profile.skill - difficulty(case_id))))


def _trial_rng(profile: ModelProfile, case_id: str, seed: int) -> random.Random:
    return random.Random(int.from_bytes(_digest(profile.name, case_id, seed), "big"))


TEMPERATURE_SPREAD = 0.5  # at temperature 1 the plan's draw moves by up to ±0.25


def _draw_plan(rng: random.Random, profile: ModelProfile, case_id: str, temperature: float = 0.0,
               seed: int = 0) -> Plan:
    p_solve = solve_probability(profile.name, case_id)
    u = rng.random()
    if temperature > 0:  # sampling noise, the same for every call of one trial at one temperature
        noise = random.Random(int.from_bytes(_digest("temperature", profile.name, case_id, seed,
                                                     round(temperature, 4)), "big")).random()
        u = (u + min(temperature, 2.0) * TEMPERATURE_SPREAD * (noise - 0.5)) % 1.0
    if u < p_solve:
        return Plan.solve
    if u < p_solve + min(profile.wander, 1.0 - p_solve):
        return Plan.wander
    return Plan.wrong


def decide(model: str, case_id: str, seed: int, temperature: float = 0.0) -> Plan:
    """The plan of trial (model, case, seed), drawn once from an RNG seeded by sha256(model, case, seed)."""
    profile = resolve_model(model)
    if profile is None:
        raise KeyError(f"unknown simulated model {model!r}; known: {sorted(MODELS)}")
    return _draw_plan(_trial_rng(profile, case_id, seed), profile, case_id, temperature, seed)


def _explore(rng: random.Random, case: CaseBrief) -> Action:
    if case.files and rng.random() < 0.5:
        return Action("bash", "Let me read the code first.", f"cat {shlex.quote(rng.choice(case.files))}")
    return Action("bash", "Let me look at the workspace first.", "ls -la")


def _wrong_edit(rng: random.Random, case: CaseBrief) -> Action:
    commentable = [f for f in case.files if f.lower().endswith(COMMENT_SUFFIXES)]
    if commentable and rng.random() < 0.7:
        target = shlex.quote(rng.choice(commentable))
        return Action("bash", "I think the problem is here; adding a note and a fix.",
                      f"printf '\\n# TODO: handle this case properly\\n' >> {target}")
    return Action("bash", "This looks like it already works; nothing to change.", "true")


def _wander(case: CaseBrief, profile: ModelProfile, seed: int, step: int) -> Action:
    commands = ["ls -la", "pwd", "ls -R | head -n 50", "find . -maxdepth 2 -type f | sort | head -n 50"]
    for name in case.files[:5]:
        quoted = shlex.quote(name)
        commands += [f"cat {quoted}", f"wc -l {quoted}", f"head -n 20 {quoted}"]
    pick = int.from_bytes(_digest("wander", profile.name, case.id, seed, step)[:4], "big")
    return Action("bash", "Let me look around a bit more before changing anything.",
                  commands[pick % len(commands)])


SUBMIT = Action("submit", "The task is done; submitting.")


def action_at(model: str, case: CaseBrief, seed: int, step: int, temperature: float = 0.0) -> Action:
    """What the agent does at ``step`` (0-based) of trial (model, case, seed)."""
    profile = resolve_model(model)
    if profile is None:
        raise KeyError(f"unknown simulated model {model!r}; known: {sorted(MODELS)}")
    rng = _trial_rng(profile, case.id, seed)
    plan = _draw_plan(rng, profile, case.id, temperature, seed)
    explore = _explore(rng, case)
    if plan is Plan.wander:
        return explore if step == 0 else _wander(case, profile, seed, step)
    if plan is Plan.solve:
        script = [explore, Action("bash", "I see the problem; applying the fix.", case.solution),
                  Action("bash", "Checking the result.", "ls -la"), SUBMIT]
    else:
        script = [explore, _wrong_edit(rng, case), SUBMIT]
    return script[min(step, len(script) - 1)]


def count_steps(messages: list[dict]) -> int:
    """The step a conversation is at: the number of assistant messages already in it."""
    return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


def offered_tools(tools: object) -> dict[str, dict]:
    """The function tools a request offers: name -> its parameters schema."""
    offered: dict[str, dict] = {}
    if isinstance(tools, list):
        for tool in tools:
            function = tool.get("function") if isinstance(tool, dict) else None
            if isinstance(function, dict) and isinstance(function.get("name"), str):
                schema = function.get("parameters")
                offered[function["name"]] = schema if isinstance(schema, dict) else {}
    return offered


# The shell tools of the agent CLIs the simulator plays, in order of preference after nightshift's own `bash`:
# Claude Code's Bash, Codex's unified exec (`exec_command`, cmd) and its older shell tools.
SHELL_TOOLS = ("bash", "Bash", "exec_command", "shell_command", "shell")
COMMAND_FIELDS = ("command", "cmd")
YIELD_MS = 30000  # the longest Codex's exec_command waits before handing back a session to poll


def tool_call_for(action: Action, offered: dict[str, dict]) -> tuple[str, str] | None:
    """(tool name, JSON arguments) that carry ``action`` with the tools offered; None when none can."""
    if action.tool == "submit" and "submit" not in offered and "complete" in offered:
        return "complete", "{}"  # gptme's end of an autonomous session (it takes no arguments)
    if action.tool != "bash":
        return (action.tool, action.arguments) if action.tool in offered else None
    for name in SHELL_TOOLS:
        if name not in offered:
            continue
        properties = offered[name].get("properties")
        properties = properties if isinstance(properties, dict) else {}
        field = next((f for f in COMMAND_FIELDS if f in properties), "command")
        kind = properties.get(field, {}).get("type") if isinstance(properties.get(field), dict) else None
        value: object = ["bash", "-lc", action.command or "true"] if kind == "array" else action.command
        arguments: dict[str, object] = {field: value}
        if "yield_time_ms" in properties:  # Codex's unified exec: wait for the command rather than poll it
            arguments["yield_time_ms"] = YIELD_MS
        return name, json.dumps(arguments)
    return None


TEXT_FENCE = "mswea_bash_command"  # mini-swe-agent's text protocol: one block of this kind per reply
TEXT_SUBMIT = "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"  # its command to finish (first output line)


def text_reply(action: Action) -> str:
    """An action the way text-protocol agents (mini-swe-agent) expect it: a THOUGHT, then exactly one
    fenced bash block. Multi-line scripts (the oracle) run under bash via a heredoc, since such agents
    run each block with /bin/sh."""
    if action.tool == "submit":
        command = TEXT_SUBMIT
    elif action.command and "\n" in action.command:
        command = f"bash <<'NIGHTSHIFT_SCRIPT'\n{action.command.rstrip()}\nNIGHTSHIFT_SCRIPT"
    else:
        command = action.command or "true"
    return f"THOUGHT: {action.content}\n\n```{TEXT_FENCE}\n{command}\n```"


def reply(model: str, case: CaseBrief | None, seed: int, messages: list[dict], tools: object = None,
          tool_choice: object = None, temperature: float = 0.0) -> Reply:
    """The assistant's reply to a request: one tool call when tools are offered, else the text protocol, or
    aider's whole-file edit format when the system prompt asks for it (simulator/edit_formats.py).

    Plain "ok" (finish_reason "stop") when no case matches, tool_choice is "none", or the planned tool is
    not among those offered. Without tools, a matched case is played in the text protocol (text_reply).
    """
    offered = offered_tools(tools)
    if case is None or tool_choice == "none":
        return Reply("ok", "stop")
    said = [(m.get("role"), message_text(m)) for m in messages if isinstance(m, dict)]
    if not offered and asks_for_whole_files([text for _, text in said]):  # aider's whole format: file listings
        users = [text for role, text in said if role == "user"]
        first_turn = bool(users) and case.instruction in users[-1]
        plan = decide(model, case.id, seed, temperature)
        return Reply(whole_reply(plan is Plan.solve, case.solution, first_turn), "stop")
    step = count_steps(messages)
    action = action_at(model, case, seed, step, temperature)
    if not offered:
        return Reply(text_reply(action), "stop")
    chosen = tool_call_for(action, offered)
    if chosen is None:
        # a CLI without a submit tool ends its turn on a reply with no tool call
        done = action.tool == "submit" and any(name in offered for name in SHELL_TOOLS)
        return Reply(action.content if done else "ok", "stop")
    profile = resolve_model(model)
    assert profile is not None
    call_id = "call_" + _digest("call", profile.name, case.id, seed, step).hex()[:24]
    call = {"id": call_id, "type": "function", "function": {"name": chosen[0], "arguments": chosen[1]}}
    return Reply(action.content, "tool_calls", call)
