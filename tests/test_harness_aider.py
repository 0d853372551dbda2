"""aider 0.86.2 from PyPI, the catalogue's entry (`kind: installed`), edits a case's files through the proxy on
bubblewrap: the simulator answers aider's whole-file format (simulator/edit_formats.py) and aider applies it.

The derived image (apt python3-venv + pip aider-chat) is built once per content key, minutes the first time,
and reused afterwards; experiments/agents.yaml names the same entry.
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
from nightshift.simulator.edit_formats import WHOLE_FILE_MARKER, solution_files
from nightshift.simulator.embedded import running_simulator
from nightshift.simulator.policy import Plan, decide
from nightshift.tasks.run_trial import TrialContext, execute_trial
from tests.conftest import BUILTIN, REPO
from tests.sandbox_support import make_backend
from tests.test_harness_command import LIMITS, SECRET

AIDER = next(v for v in yaml.safe_load((REPO / "experiments" / "agents.yaml").read_text())["variants"]
             if v["harness"].get("name") == "aider")


@pytest.fixture(scope="module")
def aider_backend():
    backend, _ = derive(make_backend("bubblewrap"), resolve_harness(Variant.model_validate(AIDER).harness).spec)
    return backend


def test_aider_edits_the_files_through_the_proxy(aider_backend, tmp_path: Path, builtin_cases) -> None:
    case = next(c for c in builtin_cases if c.id in ("alg-roman-numerals", "sh-csv-column-sum", "ops-env-merge")
                and decide("sim-strong", c.id, 1) is Plan.solve)
    with running_simulator(SimulatorConfig(latency_ms=2), [BUILTIN]) as url:
        gateway = ModelGateway.from_settings(url, SECRET, ModelEndpoint())
        ctx = TrialContext(run_dir=tmp_path, backend=aider_backend, gateway=gateway,
                           limits=LIMITS.model_copy(update={"memory_mb": 1024, "pids": 256}), grader=CaseGrader())
        spec = TrialSpec(trial_id="aider-1", run_id="r", case=case, seed=1, model_version="s",
                         variant=Variant.model_validate(AIDER))
        row = execute_trial(spec, ctx)
    events = [json.loads(line) for line in (tmp_path / "trajectories" / "aider-1.jsonl").read_text().splitlines()]
    end = next(e for e in events if e["event"] == "command_end")
    assert row.status == TrialStatus.resolved, (row.reason, end["stdout"][-2000:], end["stderr"][-2000:])
    assert "githubusercontent" not in end["stdout"] + end["stderr"]  # no download tried (its model metadata file)
    calls = [e for e in events if e["event"] == "model"]
    assert len(calls) == row.model_calls >= 1 and row.input_tokens > 0
    # aider's own prompt reached the model, asking for whole files; the reply was file listings
    assert WHOLE_FILE_MARKER in calls[0]["request"]["messages"][0]["content"]
    # its chat history, collected and mapped: step 1 edited exactly the files the solution writes
    summary = next(e for e in events if e["event"] == "agent_log")
    assert summary["agent"] == "aider" and summary["bytes"] > 0 and "error" not in summary, summary
    edits = [e for e in events if e.get("source") == "agent_log" and e["event"] == "tool"]
    assert edits[0]["step"] == 1, edits
    files = json.loads(edits[0]["call"]["function"]["arguments"])["files"]
    assert sorted(files) == sorted(solution_files(case.solution_script.read_text()) or {}), edits[0]
