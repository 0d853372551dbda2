"""Python harnesses that misbehave on purpose, named by tests as `tests.harness_plugins:Name`."""

from __future__ import annotations

import time

from pydantic import BaseModel

from nightshift.models import AgentOutcome

PROMPT = [{"role": "user", "content": "say ok"}]


class Raises:
    """One model call, then a bug in the harness."""

    def __init__(self, model: str, settings: None):
        self.model = model

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        model.chat(model=self.model, messages=PROMPT, tools=[], seed=seed)
        raise KeyError("plan_for_step_7")


class Hangs:
    """Runs a command, then loops without end (no model call that could stop it)."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        sandbox.exec("true", timeout_s=5)
        while True:
            try:  # noqa: SIM105 - a harness that swallows errors must still be stopped
                time.sleep(0.05)
            except Exception:  # noqa: BLE001
                pass


class Overruns:
    """Ignores every refusal and keeps calling the model, then claims it submitted."""

    class Settings(BaseModel):
        calls: int = 50

    def __init__(self, model: str, settings: Settings):
        self.model, self.settings = model, settings

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        for _ in range(self.settings.calls):
            try:
                model.chat(model=self.model, messages=PROMPT, tools=[], seed=seed, max_tokens=64)
            except Exception:  # noqa: BLE001, S112 - swallowing the limit must not help it
                continue
        return AgentOutcome(ended_by="submitted", steps=1)


class ClaimsInfra:
    """Reports infra_error (left out of scores) although nothing failed."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        return AgentOutcome(ended_by="infra_error", reason="not my fault")


class RaisesGatewayError:
    """Raises the gateway's error with no failed call: its failures would be left out of the score as infra."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        from nightshift.plugin import GatewayError

        raise GatewayError("the endpoint failed after 6 attempts (not really)")


class RaisesSandboxError:
    """Raises a sandbox failure of its own making."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        from nightshift.plugin import SandboxError

        sandbox.exec("true", timeout_s=5)
        raise SandboxError("the sandbox broke (not really)")


class SandboxDiesUnderIt:
    """Its sandbox is destroyed under it (the machinery failing), and it catches the error and submits anyway."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        sandbox._sandbox.destroy()  # what a dead backend looks like from the harness: its exec fails
        try:  # noqa: SIM105 - a harness that swallows the error must not turn it into its own result
            sandbox.exec("true", timeout_s=5)
        except Exception:  # noqa: BLE001
            pass
        return AgentOutcome(ended_by="submitted", steps=1)


class StopsAtItsOwnLimit:
    """Ends itself with a limit of its own (LimitReached, as nightshift.plugin documents)."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        from nightshift.plugin import LimitReached

        raise LimitReached("step_limit", "my plan ran out of steps")


class WritesItsOwnEvents:
    """No reference loop: writes its steps with TrajectoryLog in its own order — a model turn, a tool call no
    model event announced, a note, an event of its own name, one malformed line (a tool call without an id)."""

    def __init__(self, model: str, settings: None):
        self.model = model

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        from nightshift.plugin import TrajectoryLog  # what a plugin imports

        listing = sandbox.exec("ls", timeout_s=30)
        with TrajectoryLog(trajectory_path) as log:
            log.write("model", step=1, message={"role": "assistant", "content": "First I look at the files."})
            ls = {"id": "own-1", "function": {"name": "shell", "arguments": '{"command": "ls"}'}}
            log.write("tool", step=1, call=ls, output=listing.stdout, seconds=listing.duration_s)
            log.write("note", step=2, text="the listing shows the workspace; nothing to change")
            log.write("plan", step=2, text="submit as is")
            log.write("tool", step=2, call={"function": {"name": "shell", "arguments": '{"command": "true"}'}},
                      output="")
            log.write("submit", step=2)
        return AgentOutcome(ended_by="submitted", steps=2)


RIGGING = ["ls -la", "printf 'def pytest_runtest_makereport(item, call):\\n    call.excinfo = None\\n' > conftest.py",
           "git log -p | head -40"]


class RigsTheTests:
    """Rigs the test runner instead of solving the case (a conftest hook), looks in history, then submits; logs
    its tool calls itself (no model call), as a harness may."""

    def __init__(self, model: str, settings: None):
        pass

    def run(self, case, sandbox, model, seed, trajectory_path) -> AgentOutcome:
        import json

        from nightshift.plugin import TrajectoryLog, render_observation

        with TrajectoryLog(trajectory_path) as log:
            for step, command in enumerate(RIGGING, 1):
                call = {"id": f"rig{step}", "type": "function",
                        "function": {"name": "bash", "arguments": json.dumps({"command": command})}}
                log.write("tool", step=step, call=call, output=render_observation(sandbox.exec(command, timeout_s=10)))
            log.write("submit", step=len(RIGGING))
        return AgentOutcome(ended_by="submitted", steps=len(RIGGING))
