"""Nothing an agent sends can make its trial infra_error, and both backends answer it the same way.

An adversarial model drives the whole trial path (execute_trial: sandbox → ToolAgent → grader → row)
with tool calls no honest agent makes: huge commands, NUL bytes, invalid Unicode, binary, arguments
of the wrong type or shape, an output flood, a command that kills its own shell. The model is
scripted because it *is* the adversary under test (no real LLM here); everything below it is real.
"""

from __future__ import annotations

import json
from pathlib import Path

from nightshift.experiment.config import Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.graders import CaseGrader
from nightshift.models import TrialStatus
from nightshift.suites import load_cases
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN
from tests.sandbox_support import BACKENDS, SMALL, make_backend


def _bash(command: object) -> dict:
    return {"name": "bash", "arguments": json.dumps({"command": command})}


HOSTILE_CALLS = [
    _bash("cat > /workspace/big.txt <<'END'\n" + "y" * 150_000 + "\nEND"),
    _bash("# " + "z" * 2_000_000 + "\necho after"),
    _bash("echo a\0b"),
    _bash("echo \udc80\ud800"),
    _bash(b"\xff\xfe\x00binary".decode("latin-1")),
    _bash(5), _bash(["ls", "-la"]), _bash(None), _bash({"nested": True}),
    {"name": "bash", "arguments": "{not json"},
    {"name": "bash", "arguments": "[1, 2]"},
    {"name": "bash", "arguments": None},
    {"name": 7, "arguments": "{}"},
    {"arguments": "{}"},
    {"name": "rm_rf", "arguments": "{}"},
    _bash("head -c 30000000 /dev/zero"),
    _bash("yes 'flood' | head -c 5000000 >&2"),
    _bash("kill -9 $$"),
    # kills nothing on either backend; kill's own status differs (docker's root-owned sleep counts as a
    # target it may not signal: 0; bubblewrap has none: ESRCH), so the observation is the echo's
    _bash("kill -KILL -1; echo still here"),
    _bash("exec 1>&- 2>&-; sleep 0.2; exit 3"),
    _bash("exit 255"),
]


class HostileModel:
    """Plays HOSTILE_CALLS one per step, then submits; accounts like a gateway session (all zero)."""

    calls = input_tokens = output_tokens = rate_limited = 0
    retry_wait_s = quota_wait_s = cost_usd = 0.0

    def __init__(self):
        self.step = 0

    def api_slot(self):
        import contextlib

        return contextlib.nullcontext()

    def chat(self, **_):
        self.step += 1
        if self.step > len(HOSTILE_CALLS):
            function = {"name": "submit", "arguments": "{}"}
        else:
            function = HOSTILE_CALLS[self.step - 1]
        return {"message": {"role": "assistant", "content": "",
                            "tool_calls": [{"id": f"c{self.step}", "type": "function", "function": function}]},
                "model": "hostile", "finish_reason": "tool_calls"}


class HostileGateway:
    def session(self):
        return HostileModel()


def _trial(backend_name: str, tmp_path: Path):
    case = next(c for c in load_cases(BUILTIN) if not c.hidden and not c.checkpoints)
    case = case.model_copy(update={"limits": case.limits.model_copy(update={"max_steps": len(HOSTILE_CALLS) + 5})})
    spec = TrialSpec(trial_id=f"sweep-{backend_name}", run_id="sweep", case=case,
                     variant=Variant(name="hostile", model="hostile"), seed=1, model_version="hostile")
    ctx = TrialContext(run_dir=tmp_path / backend_name, backend=make_backend(backend_name), gateway=HostileGateway(),
                       limits=SMALL, grader=CaseGrader())
    row = execute_trial(spec, ctx)
    events = [json.loads(line) for line in (ctx.run_dir / "trajectories" / f"{spec.trial_id}.jsonl").open()]
    observations = [e["output"].split("\n", 1)[0] for e in events if e["event"] == "tool"]
    return row, observations


def test_hostile_tool_calls_never_make_infra_error_and_both_backends_agree(tmp_path: Path) -> None:
    results = {name: _trial(name, tmp_path) for name in BACKENDS}
    for name, (row, observations) in results.items():
        assert row.status != TrialStatus.infra_error, f"{name}: {row.reason}"
        assert row.status == TrialStatus.failed and row.steps == len(HOSTILE_CALLS) + 1, (name, row)
        assert len(observations) == len(HOSTILE_CALLS)
    (row_a, obs_a), (row_b, obs_b) = results.values()
    assert row_a.status == row_b.status and (row_a.f2p_passed, row_a.p2p_passed) == (row_b.f2p_passed, row_b.p2p_passed)
    assert obs_a == obs_b  # the same exit code (or the same error) for every hostile call on both backends
    by_call = dict(zip(range(len(HOSTILE_CALLS)), obs_a, strict=True))
    assert by_call[0] == "exit code: 0" and by_call[1] == "exit code: 0"
    assert by_call[2] == "exit code: 126" and by_call[17] == "exit code: 137"
    assert all(o.startswith("error: bash needs arguments") for o in obs_a[5:12]), obs_a[5:12]
    assert obs_a[12].startswith("error: unknown tool") and obs_a[14].startswith("error: unknown tool")

