"""mini-swe-agent 2.4.6 from PyPI, the catalogue's entry (`kind: installed`), installed into a derived image,
solves a case through the proxy (both backends), and its own .traj.json is mapped onto the trajectory.

The derived image is built once per content key (minutes the first time: apt + pip with network) and
reused afterwards; experiments/harnesses.yaml names the catalogue entry, so this test runs exactly what a
user's night runs.
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

MINI = next(v for v in yaml.safe_load((REPO / "experiments" / "harnesses.yaml").read_text())["variants"]
            if v["harness"]["kind"] == "installed")


@pytest.fixture(scope="module", params=["bubblewrap", "docker"])
def mini_backend(request):
    """mini-swe-agent's derived image on each backend: a committed docker image, a cached bubblewrap rootfs."""
    base = make_backend(request.param)
    backend, made = derive(base, resolve_harness(Variant.model_validate(MINI).harness).spec)
    return backend


def test_mini_swe_agent_solves_through_the_proxy(mini_backend, tmp_path: Path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id in ("py-bugfix-slugify", "sh-csv-column-sum")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    with running_simulator(SimulatorConfig(latency_ms=2), [BUILTIN]) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint())
        ctx = TrialContext(run_dir=tmp_path, backend=mini_backend, gateway=gateway,
                           limits=LIMITS.model_copy(update={"memory_mb": 1024, "pids": 256}), grader=CaseGrader())
        spec = TrialSpec(trial_id="mini-1", run_id="r", case=case, seed=1, model_version="s",
                         variant=Variant.model_validate(MINI))
        row = execute_trial(spec, ctx)
    events = [json.loads(line) for line in (tmp_path / "trajectories" / "mini-1.jsonl").read_text().splitlines()]
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-2000:], end["stderr"][-2000:])
    calls = [e for e in events if e["event"] == "model"]
    assert len(calls) == row.model_calls >= 3 and row.input_tokens > 0 and row.output_tokens > 0
    # mini's own prompt reached the model: its system template and its text protocol
    assert "mswea_bash_command" in calls[0]["request"]["messages"][0]["content"]
    assert calls[-1]["response"]["choices"][0]["message"]["content"].endswith(
        "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```")
    # its own log, collected and mapped: one bash call per step it took, in the proxy's steps, with its output
    summary = next(e for e in events if e["event"] == "agent_log")
    assert summary["agent"] == "mini-swe-agent" and summary["bytes"] > 0 and "error" not in summary, summary
    mapped = [e for e in events if e.get("source") == "agent_log" and e["event"] == "tool"]
    assert [e["step"] for e in mapped] == list(range(1, len(calls) + 1))
    last = json.loads(mapped[-1]["call"]["function"]["arguments"])["command"]
    assert last == "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT", mapped[-1]
    assert mapped[0]["output"], mapped[0]  # the first command's observation, as mini recorded it
