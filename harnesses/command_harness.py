"""Command harnesses: an agent CLI (mini-swe-agent, aider, a vendor's agent) run inside the sandbox.

The agent gets the instruction at INSTRUCTION_FILE, a model endpoint on the sandbox's own loopback that speaks
Chat Completions, Responses and Anthropic Messages (OPENAI_BASE_URL, ANTHROPIC_BASE_URL and their aliases) and
a per-trial key worth nothing elsewhere (OPENAI_API_KEY, ANTHROPIC_API_KEY). Its
requests leave the sandbox only through the relay and the unix socket of the trial's ModelProxy, which
enforces the step, token and cost limits. `run` is one sandbox exec. Its time limit is working time
(waiting on the endpoint excluded, harnesses/limits.py): a watchdog reads the clock and, at the limit,
the proxy's stop makes the relay kill the agent; the exec itself is bounded by the clock ceiling, where
the backend kills the whole process tree. How the trial ends:

* the proxy saw the gateway fail → infra_error; a limit was reached → that limit's status;
* working time ran out → timeout (the ceiling first → infra_error); `run` exited 0 → submitted (graded);
* any other exit → agent_error, with the exit code and the tail of the agent's output in the reason.

With ``log:`` set, the agent's own log is read from the sandbox's /tmp after it exits and mapped onto
trajectory events (harnesses/agent_logs.py).
"""

from __future__ import annotations

import contextlib
import secrets
import shlex
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

from nightshift.gateway import GatewaySession
from nightshift.harnesses.agent_logs import MAPPERS, collect
from nightshift.harnesses.catalogue_logs import collect_agent_log
from nightshift.harnesses.limits import LimitGuard, TrialLimits
from nightshift.harnesses.proxy import ModelProxy
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import AgentOutcome, Case, ExecResult
from nightshift.trajectory import TrajectoryLog

CONTROL_DIR = "/run/nightshift"  # inside the sandbox (read-only); on the host, sandbox.run_dir
INSTRUCTION_FILE = f"{CONTROL_DIR}/instruction.md"
SOCKET = f"{CONTROL_DIR}/model.sock"
RELAY = f"{CONTROL_DIR}/relay.py"
PORT = 4141
BASE_URL = f"http://127.0.0.1:{PORT}/v1"
ANTHROPIC_BASE_URL = f"http://127.0.0.1:{PORT}"  # Anthropic's SDKs add /v1/messages themselves
TAIL = 1500
WATCH_S = 0.25  # how often the watchdog reads the working clock


def fill(template: str, values: dict[str, str]) -> str:
    """Only the named placeholders are replaced, so a command's own braces (awk, JSON) stay as written."""
    for name, value in values.items():
        template = template.replace("{" + name + "}", value)
    return template


class CommandHarness:
    def __init__(self, resolved: ResolvedHarness, model: str):
        self.spec = resolved.spec
        self.agent = resolved.agent
        self.model = model

    def _prepare(self, case: Case, sandbox) -> Path:
        control = Path(sandbox.run_dir)  # read-only inside: the agent reads these, cannot replace them
        (control / "instruction.md").write_text(case.instruction)
        shutil.copyfile(Path(__file__).with_name("relay.py"), control / "relay.py")
        for name in ("instruction.md", "relay.py"):
            (control / name).chmod(0o644)
        return control

    def environment(self, token: str) -> dict[str, str]:
        values = {"OPENAI_BASE_URL": BASE_URL, "OPENAI_API_BASE": BASE_URL, "OPENAI_API_KEY": token,
                  "ANTHROPIC_BASE_URL": ANTHROPIC_BASE_URL, "ANTHROPIC_API_KEY": token,
                  "NIGHTSHIFT_MODEL": self.model, "NIGHTSHIFT_INSTRUCTION_FILE": INSTRUCTION_FILE,
                  "NO_PROXY": "127.0.0.1,localhost"}
        return {**self.spec.env, **values}  # the user's env cannot point the agent elsewhere or add a key

    def run(self, case: Case, sandbox, session: GatewaySession, seed: int, trajectory: Path,
            limits: TrialLimits) -> AgentOutcome:
        control = self._prepare(case, sandbox)
        token = f"nstrial-{secrets.token_urlsafe(18)}"
        guard = LimitGuard(limits, session)
        run = fill(self.spec.run or "", {"model": self.model, "instruction_file": INSTRUCTION_FILE,
                                         "base_url": BASE_URL, "workspace": "/workspace"})
        command = f"exec python3 {RELAY} {SOCKET} {PORT} -- bash -c {shlex.quote(run)}"
        with TrajectoryLog(trajectory) as log:
            log.write("start", case=case.id, model=self.model, seed=seed, harness="command", run=run)
            with ModelProxy(control / "model.sock", sandbox.uid, session, guard, self.model, seed, token,
                            log) as proxy, _stop_at_time_limit(guard, proxy):
                # the exec's own bound is the clock ceiling; the working-time limit is the watchdog's
                result = sandbox.exec(command, timeout_s=guard.clock.ceiling_s, env=self.environment(token))
            log.write("command_end", exit_code=result.exit_code, timed_out=result.timed_out,
                      seconds=round(result.duration_s, 3), stdout=result.stdout[-8000:], stderr=result.stderr[-8000:])
            if self.agent is not None and self.agent.entry.log:
                collect_agent_log(self.agent, sandbox, log)
            if self.spec.log is not None:
                self._agent_log(sandbox, log)
        return self._outcome(result, proxy, guard)

    def _agent_log(self, sandbox, log: TrajectoryLog) -> None:
        """The agent's own log (spec.log), mapped onto tool/note events after an ``agent_log`` line saying
        what was read; a sandbox without a host folder for /tmp (a plugin backend's) is named, not read."""
        assert self.spec.log is not None
        folder = getattr(getattr(sandbox, "folder", None), "disk", None)
        if folder is None:
            log.write("agent_log", format=self.spec.log.format, path=self.spec.log.path, files=[], events=0,
                      problems=[f"the {type(sandbox).__name__} sandbox has no host folder for /tmp; not collected"])
            return
        records, files, problems = collect(Path(folder.tmp), self.spec.log.path)
        events = list(MAPPERS[self.spec.log.format](records))
        log.write("agent_log", format=self.spec.log.format, path=self.spec.log.path, files=files, records=len(records),
                  events=len(events), problems=problems[:20])
        for event in events:
            log.write(event.pop("event"), **event)

    def _outcome(self, result: ExecResult, proxy: ModelProxy, guard: LimitGuard
                 ) -> AgentOutcome:
        steps = guard.calls
        if proxy.infra_error:
            return AgentOutcome(ended_by="infra_error", steps=steps, reason=f"model proxy: {proxy.infra_error}"[:500])
        if guard.hit is not None:
            return AgentOutcome(ended_by=guard.hit.status, steps=steps, reason=guard.hit.reason)
        if result.timed_out:  # the clock ceiling: whose time it was decides the status
            ended = guard.expired()
            status, why = (ended.status, ended.reason) if ended else ("timeout", "clock ceiling reached")
            return AgentOutcome(ended_by=status, steps=steps, reason=f"{why}; the agent was killed")
        if result.exit_code == 0:
            note = "" if steps else "the agent exited 0 without calling the model"
            return AgentOutcome(ended_by="submitted", steps=steps, reason=note)
        tail = (result.stderr.strip() or result.stdout.strip())[-TAIL:]
        what = "run command not found in the image" if result.exit_code == 127 else f"exit code {result.exit_code}"
        return AgentOutcome(ended_by="agent_error", steps=steps, reason=f"agent {what}: {tail}"[:500])


@contextlib.contextmanager
def _stop_at_time_limit(guard: LimitGuard, proxy: ModelProxy) -> Iterator[None]:
    """Watch the working clock while the agent runs; at its limit the proxy's stop makes the relay kill it."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(WATCH_S):
            if guard.expired() is not None:
                guard.stopped.set()
                proxy.stop.set()
                return

    watcher = threading.Thread(target=watch, name="time-limit-watch", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
