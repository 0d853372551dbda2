"""The reference agent: a tool-calling loop with a bash tool (run in the sandbox) and a submit tool.

Read top to bottom: build the prompt, then per step query the model, run its tool calls, feed back
the output; stop on submit, on the step limit or on the working-time limit (harnesses/working_clock.py).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from nightshift.harnesses.working_clock import WorkingClock, waiting_of
from nightshift.plugin import (
    TOOL_SCHEMAS,
    AgentOutcome,
    Case,
    GatewayError,
    ModelClient,
    RequestRejected,
    Sandbox,
    TrajectoryLog,
    render_observation,
)


class ReferenceSettings(BaseModel):
    """`harness.settings` of the reference loop (kind: reference): how it behaves for one variant."""

    model_config = ConfigDict(extra="forbid")

    system_prompt: str = Field(
        "You are a careful software engineer working in a Linux sandbox. Use the bash tool to inspect "
        "and change files in /workspace. When the task is done, call submit.",
        description="System message sent first in every trial.")
    tools: list[Literal["bash", "submit"]] = Field(["bash", "submit"], description="Tools offered to the model.")
    max_steps: int | None = Field(None, ge=1, description="Model turns per trial; unset uses the case's limit.")
    temperature: float = Field(0.0, ge=0, le=2, description="Sampling temperature sent with every call.")
    max_tokens: int = Field(1024, ge=1, description="max_tokens for each model call.")
    command_timeout_s: float = Field(60, gt=0, description="Seconds one bash tool call may run.")

    @field_validator("tools")
    @classmethod
    def _needs_submit(cls, tools: list[str]) -> list[str]:
        if "submit" not in tools:
            raise ValueError("the agent needs the 'submit' tool to finish; add 'submit' to tools")
        return tools


class ToolAgent:
    Settings = ReferenceSettings  # what `harness.settings` may hold for kind 'reference'

    def __init__(self, model: str, settings: ReferenceSettings | None = None):
        self.model = model
        self.settings = settings or ReferenceSettings()

    def _prompt(self, case: Case) -> list[dict]:
        return [{"role": "system", "content": self.settings.system_prompt},
                {"role": "user", "content": f"{case.instruction}\n\nThe files are in /workspace."}]

    def run(self, case: Case, sandbox: Sandbox, model: ModelClient, seed: int, trajectory_path: Path) -> AgentOutcome:
        max_steps = self.settings.max_steps or case.limits.max_steps
        # the limit counts the agent's work, not waiting on the endpoint (harnesses/working_clock.py)
        clock = WorkingClock(case.limits.wall_clock_s, case.limits.clock_ceiling_s, waiting_of(model))
        tools = [TOOL_SCHEMAS[name] for name in self.settings.tools]
        messages = self._prompt(case)
        with TrajectoryLog(trajectory_path) as log:
            log.write("start", case=case.id, model=self.model, seed=seed, messages=messages)
            for step in range(1, max_steps + 1):
                verdict = clock.verdict()
                if verdict:
                    log.write(verdict, step=step, working_s=round(clock.working_s(), 3),
                              waiting_s=round(clock.waiting_s(), 3))
                    return AgentOutcome(ended_by=verdict, steps=step - 1, reason=clock.reason(verdict))
                started = time.monotonic()
                try:
                    reply = model.chat(model=self.model, messages=messages, tools=tools, seed=seed,
                                       temperature=self.settings.temperature, max_tokens=self.settings.max_tokens)
                except RequestRejected as exc:  # its own request (e.g. a context grown past the quota)
                    log.write("agent_error", step=step, error=str(exc))
                    return AgentOutcome(ended_by="agent_error", steps=step - 1, reason=str(exc))
                except GatewayError as exc:
                    log.write("infra_error", step=step, error=str(exc))
                    return AgentOutcome(ended_by="infra_error", steps=step - 1, reason=str(exc))
                message = reply["message"]
                messages.append(message)
                log.write("model", step=step, message=message, served_by=reply["model"],
                          seconds=round(time.monotonic() - started, 4), usage=reply.get("usage"))
                calls = message.get("tool_calls") or []
                if not calls:
                    messages.append({"role": "user", "content": "Use the bash tool to work, and submit when done."})
                    continue
                for call in calls:
                    if _tool_name(call) == "submit":
                        log.write("submit", step=step)
                        return AgentOutcome(ended_by="submitted", steps=step)
                    tool_started = time.monotonic()
                    observation = self._run_tool(call, sandbox, clock)
                    log.write("tool", step=step, call=call, output=observation,
                              seconds=round(time.monotonic() - tool_started, 4))
                    messages.append({"role": "tool", "tool_call_id": call.get("id"), "content": observation})
            return AgentOutcome(ended_by="step_limit", steps=max_steps, reason=f"no submit within {max_steps} steps")

    def _run_tool(self, call: dict, sandbox: Sandbox, clock: WorkingClock) -> str:
        # everything in a tool call is the model's (the agent's) choice: a malformed one is an
        # observation for the agent, never an exception (that would make the trial infra_error)
        name = _tool_name(call)
        if name not in self.settings.tools:
            return f"error: unknown tool {name!r}; available: {', '.join(self.settings.tools)}"
        try:
            arguments = json.loads((call.get("function") or {}).get("arguments") or "{}")
        except (json.JSONDecodeError, TypeError, AttributeError):
            arguments = None
        command = arguments.get("command") if isinstance(arguments, dict) else None
        if not isinstance(command, str):
            return "error: bash needs arguments {\"command\": \"<a string>\"}"
        timeout = max(1.0, min(self.settings.command_timeout_s, clock.remaining_s()))
        return render_observation(sandbox.exec(command, timeout_s=timeout))


def _tool_name(call: object) -> object:
    function = call.get("function") if isinstance(call, dict) else None
    return function.get("name") if isinstance(function, dict) else None
