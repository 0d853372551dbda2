"""gptme 0.35.1 from PyPI, the catalogue's entry (`kind: installed`), solves a builtin case through the proxy on
bubblewrap: Chat Completions with function calling (its `shell` tool), ending on its `complete` tool, which
the simulator calls to submit; its conversation.jsonl is collected and mapped onto the proxy's steps.

The derived image (apt python3-venv + pip gptme) is built once per content key, minutes the first time, and
reused afterwards; experiments/agents.yaml names the same entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from nightshift.experiment.config import ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.harnesses.pins import derive
from nightshift.harnesses.resolve import resolve_harness
from nightshift.models import TrialStatus
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN, REPO
from tests.sandbox_support import make_backend
from tests.test_harness_command import LIMITS, SECRET

GPTME = next(v for v in yaml.safe_load((REPO / "experiments" / "agents.yaml").read_text())["variants"]
             if v["harness"].get("name") == "gptme")


@pytest.fixture(scope="module")
def gptme_backend():
    backend, _ = derive(make_backend("bubblewrap"), resolve_harness(Variant.model_validate(GPTME).harness).spec)
    return backend


def test_gptme_solves_a_case_through_the_proxy(gptme_backend, tmp_path: Path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id in ("sh-csv-column-sum", "py-bugfix-slugify", "ops-env-merge")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    with running_simulator(SimulatorConfig(latency_ms=2), [BUILTIN]) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint())
        ctx = TrialContext(run_dir=tmp_path, backend=gptme_backend, gateway=gateway,
                           limits=LIMITS.model_copy(update={"memory_mb": 1024, "pids": 256}), grader=CaseGrader())
        spec = TrialSpec(trial_id="gptme-1", run_id="r", case=case, seed=1, model_version="s",
                         variant=Variant.model_validate(GPTME))
        row = execute_trial(spec, ctx)
    text = (tmp_path / "trajectories" / "gptme-1.jsonl").read_text()
    events = [json.loads(line) for line in text.splitlines()]
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-2000:], end["stderr"][-2000:])
    assert end["exit_code"] == 0 and "tiktoken" not in end["stdout"] + end["stderr"]  # no download tried
    assert not [e for e in events if e["event"] == "proxy_refused"]  # no naming call for another model
    calls = [e for e in events if e["event"] == "model"]
    assert len(calls) == row.model_calls >= 3 and {e.get("protocol", "chat") for e in calls} == {"chat"}, calls[0]
    assert calls[-1]["message"]["tool_calls"][0]["function"]["name"] == "complete"  # how it ended
    # its conversation log, collected and mapped: one call per step, with the proxy's call ids and outputs
    summary = next(e for e in events if e["event"] == "agent_log")
    assert summary["agent"] == "gptme" and summary["bytes"] > 0 and "error" not in summary, summary
    tools = [e for e in events if e.get("source") == "agent_log" and e["event"] == "tool"]
    issued = [c["id"] for e in calls for c in e["message"].get("tool_calls") or []]
    assert [t["call"]["id"] for t in tools] == issued and [t["step"] for t in tools] == list(range(1, len(calls) + 1))
    shell = [t for t in tools if t["call"]["function"]["name"] == "shell"]
    assert shell and all(t["output"] for t in shell), shell  # what each command printed, as gptme saw it
    assert SECRET not in text
