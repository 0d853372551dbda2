"""An agent written with the official anthropic SDK, run inside a bubblewrap sandbox, solves a case through the
keyless proxy in Anthropic Messages (streamed), while the night's endpoint (the simulator) speaks Chat
Completions: the variant of experiments/protocols.yaml, run as a night runs it (execute_trial).

Its derived image (python3-venv from Debian, anthropic==2.16.0 from PyPI) is built once per content key; about a
minute the first time on this machine, reused afterwards.
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
from nightshift.models import TrialStatus
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN, REPO
from tests.sandbox_support import make_backend
from tests.test_harness_command import LIMITS, SECRET

AGENT = next(v for v in yaml.safe_load((REPO / "experiments" / "protocols.yaml").read_text())["variants"]
             if v["name"] == "anthropic-sdk")


@pytest.fixture(scope="module")
def sdk_backend():
    backend, _ = derive(make_backend("bubblewrap"), Variant.model_validate(AGENT).harness)
    return backend


def test_an_anthropic_sdk_agent_solves_through_the_proxy(sdk_backend, tmp_path: Path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id in ("py-bugfix-slugify", "sh-csv-column-sum")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    with running_simulator(SimulatorConfig(latency_ms=2), [BUILTIN]) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint(prices={
            "sim-strong": {"input_per_mtok": 2.0, "output_per_mtok": 8.0}}))
        ctx = TrialContext(run_dir=tmp_path, backend=sdk_backend, grader=CaseGrader(), gateway=gateway,
                           limits=LIMITS.model_copy(update={"memory_mb": 1024, "pids": 256}))
        spec = TrialSpec(trial_id="sdk-1", run_id="r", case=case, seed=1, model_version="s",
                         variant=Variant.model_validate(AGENT))
        row = execute_trial(spec, ctx)
    text = (tmp_path / "trajectories" / "sdk-1.jsonl").read_text()
    events = [json.loads(line) for line in text.splitlines()]
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-2000:], end["stderr"][-2000:])
    calls = [e for e in events if e["event"] == "model"]
    assert len(calls) == row.model_calls == 4 and row.cost_usd > 0 and row.input_tokens > 0
    assert {e["protocol"] for e in calls} == {"anthropic"} and all(e["wire_request"]["stream"] for e in calls)
    # the SDK's tool_result blocks arrived as chat tool messages, answering the calls before them
    last = calls[-1]["request"]["messages"]
    assert last[0] == {"role": "system", "content": "You are a careful coding agent in /workspace."}
    assert [m["role"] for m in last[1:]] == ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"]
    assert SECRET not in text
