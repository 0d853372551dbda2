"""PlanAct: an example Python harness — write a short plan first, then act with a bash tool until submit.

A harness is a class with a pydantic `Settings` model, built as `PlanAct(model_name, settings)`, whose
`run(case, sandbox, model, seed, trajectory_path)` returns an AgentOutcome. Use it from an experiment:

    harness: {kind: python, entrypoint: examples.plan_act:PlanAct, settings: {plan_steps: 3}}

nightshift enforces the limits around it (steps, wall clock, tokens, cost): the loop below never counts
its own steps, it is stopped with the right status when it runs out.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from nightshift.plugin import TOOL_SCHEMAS, AgentOutcome, Case, ModelClient, Sandbox, TrajectoryLog, render_observation


class PlanActSettings(BaseModel):
    """What a variant may set under `harness.settings`."""

    plan_steps: int = Field(3, ge=0, le=10, description="Steps of the plan written before acting (0: no plan).")
    command_timeout_s: float = Field(60, gt=0, description="Seconds one bash command may run.")
    max_tokens: int = Field(1024, ge=1, description="max_tokens of each model call.")


SYSTEM = ("You are a careful software engineer in a Linux sandbox. Work in /workspace with the bash tool; "
          "call submit when the task is done.")


class PlanAct:
    Settings: ClassVar[type[PlanActSettings]] = PlanActSettings  # what nightshift validates `settings:` with

    def __init__(self, model: str, settings: PlanActSettings):
        self.model = model
        self.settings = settings

    def _ask(self, model: ModelClient, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
             seed: int) -> dict[str, Any]:
        reply = model.chat(model=self.model, messages=messages, tools=tools, temperature=0.0, seed=seed,
                           max_tokens=self.settings.max_tokens)
        message: dict[str, Any] = reply["message"]
        return message

    def run(self, case: Case, sandbox: Sandbox, model: ModelClient, seed: int, trajectory_path: Path) -> AgentOutcome:
        messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM},
                    {"role": "user", "content": f"{case.instruction}\n\nThe files are in /workspace."}]
        tools = [TOOL_SCHEMAS["bash"], TOOL_SCHEMAS["submit"]]
        steps = 0
        with TrajectoryLog(trajectory_path) as log:
            log.write("start", case=case.id, model=self.model, seed=seed, harness="PlanAct", messages=messages)
            if self.settings.plan_steps:
                ask = {"role": "user", "content": f"Before acting, write a plan of at most "
                                                  f"{self.settings.plan_steps} steps."}
                plan = self._ask(model, [*messages, ask], [], seed)
                messages += [ask, {"role": "assistant", "content": plan.get("content") or ""}]
                steps += 1
                log.write("plan", step=steps, message=plan)
            while True:  # nightshift ends the trial at its step, time, token or cost limit
                message = self._ask(model, messages, tools, seed)
                messages.append(message)
                steps += 1
                log.write("model", step=steps, message=message)
                calls = message.get("tool_calls") or []
                if not calls:
                    messages.append({"role": "user", "content": "Use the bash tool, and submit when done."})
                for call in calls:
                    if call["function"]["name"] == "submit":
                        log.write("submit", step=steps)
                        return AgentOutcome(ended_by="submitted", steps=steps)
                    command = json.loads(call["function"].get("arguments") or "{}").get("command", "true")
                    output = render_observation(sandbox.exec(command, timeout_s=self.settings.command_timeout_s))
                    log.write("tool", step=steps, call=call, command=command, output=output)
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
