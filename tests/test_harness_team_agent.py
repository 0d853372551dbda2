"""An agent the catalogue does not know, added from a team's project in one `agents:` block, runs as `kind: installed`.

The agent is the anthropic-SDK loop of experiments/protocols.yaml (its install lines, with `{version}` for the
pin, so the derived image is the one tests/test_harness_anthropic_sdk.py builds: the same content key), declared
in the experiment file's `agents:` block with a log and a mapper from the team's own project folder; the
experiment is read and checked as `nightshift run` reads it, then one trial runs on bubblewrap.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from nightshift.experiment.config import ModelEndpoint
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.harnesses.pins import derive
from nightshift.models import TrialStatus
from nightshift.preflight import check_experiment
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN, REPO
from tests.sandbox_support import make_backend
from tests.test_harness_command import LIMITS, SECRET

SDK = next(v for v in yaml.safe_load((REPO / "experiments" / "protocols.yaml").read_text())["variants"]
           if v["name"] == "anthropic-sdk")["harness"]

MAPPER = '''
def files(text):
    """The team's own mapper: what the agent left in the workspace, as a note."""
    return [{"event": "note", "text": "workspace after the agent: " + ", ".join(text.split())}]
'''


def test_a_team_agent_from_the_agents_block_solves_a_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          builtin_cases) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "team_logs.py").write_text(MAPPER)
    monkeypatch.setenv("NIGHTSHIFT_HOME", str(project))  # the project folder: its modules are importable
    entry = {"name": "anthropic-loop", "protocol": "anthropic", "versions": ["2.16.0"],
             "install": [line.replace("anthropic==2.16.0", "anthropic=={version}") for line in SDK["install"]],
             "run": f"{SDK['run']}; status=$?; ls /workspace > /tmp/team-agent.log; exit $status",
             "log": "/tmp/team-agent.log", "mapper": "team_logs:files"}
    experiment = {"name": "team", "agents": [entry], "variants": [
        {"name": "loop", "model": "sim-strong", "max_tokens": 200000,
         "harness": {"kind": "installed", "name": "anthropic-loop", "version": "2.16.0", "max_steps": 30}}]}
    path = project / "team.yaml"
    path.write_text(yaml.safe_dump(experiment, sort_keys=False))
    checked = check_experiment(path)
    resolved = checked.harnesses["loop"]
    assert resolved.spec.install == SDK["install"]  # the same lines: the same derived image
    backend, _ = derive(make_backend("bubblewrap"), resolved.spec)
    case = next(c for c in builtin_cases if c.id in ("py-bugfix-slugify", "sh-csv-column-sum")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    with running_simulator(SimulatorConfig(latency_ms=2), [BUILTIN]) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint())
        ctx = TrialContext(run_dir=tmp_path, backend=backend, grader=CaseGrader(), gateway=gateway,
                           limits=LIMITS.model_copy(update={"memory_mb": 1024, "pids": 256}),
                           harnesses=dict(checked.harnesses))
        spec = TrialSpec(trial_id="team-1", run_id="r", case=case, seed=1, model_version="s",
                         variant=checked.exp.variants[0])
        row = execute_trial(spec, ctx)
    events = [json.loads(line) for line in (tmp_path / "trajectories" / "team-1.jsonl").read_text().splitlines()]
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-2000:], end["stderr"][-2000:])
    assert {e["protocol"] for e in events if e["event"] == "model"} == {"anthropic"}
    assert next(e for e in events if e["event"] == "trial")["harness"] == "installed"
    note = next(e for e in events if e.get("source") == "agent_log")
    assert note["event"] == "note" and note["text"].startswith("workspace after the agent: "), note
