"""A team's second night, as the team runs it: its own Python harness crashes in version 1 (a TypeError on
every trial), is fixed, the night runs again, and `nightshift compare` reads the two runs.

The first run is a broken arm, said at its end with the reason and an example trial, and exits 5; compare
does not take the edited harness for noise (no A/A pair of it, the change named, a finite floor from the
reference arm's real A/A pair instead of ±92 points), and a verdict of the broken arm says "broken arm".
Everything goes through the `nightshift` command in a project folder, as docs/HARNESSES.md tells a team to.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nightshift import results
from tests.sandbox_support import make_backend

VENV_BIN = Path(sys.executable).parent
CASES = ["py-bugfix-slugify", "sh-csv-column-sum", "dt-jsonl-daily-summary"]

HARNESS = '''"""ListPatch: a small bash tool loop."""

from __future__ import annotations

import json
from pathlib import Path

from nightshift.plugin import TOOL_SCHEMAS, AgentOutcome, Case, ModelClient, Sandbox, TrajectoryLog, render_observation


class ListPatch:
    def __init__(self, model: str, settings) -> None:
        self.model = model

    def run(self, case: Case, sandbox: Sandbox, model: ModelClient, seed: int, trajectory_path: Path) -> AgentOutcome:
        messages = [{"role": "user", "content": f"{case.instruction}\\n\\nThe files are in /workspace."}]
        tools = [TOOL_SCHEMAS["bash"], TOOL_SCHEMAS["submit"]]
        with TrajectoryLog(trajectory_path) as log:
            log.write("start", case=case.id, model=self.model, seed=seed, messages=messages)
            for step in range(1, 31):
                reply = model.chat(CALL)
                message = reply["message"]
                messages.append(message)
                log.write("model", step=step, message=message)
                for call in message.get("tool_calls") or []:
                    if call["function"]["name"] == "submit":
                        return AgentOutcome(ended_by="submitted", steps=step)
                    command = json.loads(call["function"].get("arguments") or "{}").get("command", "")
                    output = render_observation(sandbox.exec(command, timeout_s=60))
                    log.write("tool", step=step, call=call, output=output)
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
        return AgentOutcome(ended_by="step_limit", steps=30)
'''
BROKEN = "model=self.model, messages=messages, seed=seed"  # version 1: `tools` forgotten
FIXED = "model=self.model, messages=messages, tools=tools, seed=seed"

EXPERIMENT = f"""name: night
suites: [builtin]
cases: {CASES}
variants:
  - {{name: reference, model: sim-strong}}
  - name: listpatch
    model: sim-strong
    harness: {{kind: python, entrypoint: "listpatch:ListPatch"}}
seeds: [1, 2]
concurrency: 3
model: {{simulator: {{latency_ms: 5}}}}
output_dir: ../runs
"""


def nightshift(project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("NIGHTSHIFT_HOME", "PYTHONPATH")}
    env.update(PATH=f"{VENV_BIN}:{env['PATH']}", COLUMNS="200")
    return subprocess.run(["nightshift", *args], cwd=project, env=env, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def nights(tmp_path_factory: pytest.TempPathFactory, prefect_server: str) -> dict:
    make_backend("bubblewrap")  # the trials' sandboxes (skips where they cannot run)
    project = tmp_path_factory.mktemp("team") / "my-evals"
    (project / "experiments").mkdir(parents=True)
    (project / "experiments" / "night.yaml").write_text(EXPERIMENT)
    out: dict = {"project": project}
    for version, call in (("broken", BROKEN), ("fixed", FIXED)):
        (project / "listpatch.py").write_text(HARNESS.replace("CALL", call))
        out[version] = nightshift(project, "run", "--progress", "log", "experiments/night.yaml")
        folders = {p.parent for p in (project / "runs").glob("night-*/results.parquet")}
        out[f"{version}_dir"] = next(iter(folders - {out.get("broken_dir")}))
    out["compare"] = nightshift(project, "compare", str(out["broken_dir"]), str(out["fixed_dir"]))
    return out


def test_a_broken_first_run_says_why_and_exits_5(nights: dict) -> None:
    run = nights["broken"]
    said = run.stdout
    assert run.returncode == 5, said[-3000:] + run.stderr[-3000:]
    assert "BROKEN ARM listpatch: 6 of 6 trials ended agent_error" in said
    # dt-jsonl-daily-summary is held out: its two trials' reasons keep only their kind (tasks/sealed_files.py)
    assert ("most common reason (4 of 6): harness raised TypeError: LimitedModel.chat() missing 1 required "
            "keyword-only argument: 'tools'") in said
    example = next(line for line in said.splitlines() if "example trial:" in line)
    assert "/listpatch/seed" in example and f"nightshift view {nights['broken_dir']}" in example
    assert "#trial=" in example
    # the run's own table: its verdict is no verdict, in the direction compare uses
    assert "listpatch − reference = -66.7 pts" in said and "→ broken arm (listpatch: 6 of 6" in said
    assert "example trial:" in said.rstrip().splitlines()[-1]  # said last, where the eye lands


def test_the_fixed_run_is_no_broken_arm(nights: dict) -> None:
    run = nights["fixed"]
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "BROKEN ARM" not in run.stdout and "listpatch − reference = " in run.stdout


def test_compare_names_the_harness_change_and_takes_it_for_no_noise(nights: dict) -> None:
    compare = nights["compare"]
    said = " ".join(compare.stdout.split())  # rich wraps long lines
    assert compare.returncode == 5, compare.stdout[-4000:] + compare.stderr[-3000:]  # one of its arms is broken
    assert said.startswith("BROKEN ARM listpatch@")
    assert "A/A runs (identical pins): listpatch" not in said
    assert "A/A runs (identical pins): reference@" in said  # the unchanged arm is a real A/A pair
    assert "listpatch: harness changed version sha256:" in said and "this is the difference compared, not noise" in said
    assert ("harnesses[listpatch].version differs (not guarded: the harness change is what is compared, so this "
            "variant's runs are no A/A pair)") in said
    # the same direction as the run printed: the experiment's first variant is the baseline, the earlier run too
    old, new = (nights[f"{v}_dir"].name.rsplit("-", 1)[1][:8] for v in ("broken", "fixed"))
    assert f"listpatch@{new} − reference@{new} = +0.0 pts" in said and f"reference@{new} − listpatch" not in said
    assert f"listpatch@{new} − listpatch@{old} = +66.7 pts" in said and "→ broken arm (listpatch@" in said


def test_compare_has_a_real_floor_and_a_verdict_for_every_pair(nights: dict) -> None:
    frame = results.compare(nights["broken_dir"], nights["fixed_dir"])
    rows = {(r.baseline.split("@")[0], r.variant.split("@")[0], r.baseline.split("@")[1] == r.variant.split("@")[1]):
            r for r in frame[frame.metric == "pass_rate"].itertuples()}
    across = rows[("listpatch", "listpatch", False)]
    assert across.harness_change.startswith("version sha256:") and across.verdict == "broken arm"
    assert across.diff == pytest.approx(2 / 3) and across.floor_source in ("A/A runs", "seeds")
    assert math.isfinite(across.noise_floor) and 0 <= across.noise_floor < 0.1  # was ±92.4 pts
    reference = rows[("reference", "reference", False)]
    assert reference.verdict == "within noise" and reference.harness_change == ""
    assert math.isfinite(reference.noise_floor) and 0 <= reference.noise_floor < 0.1
    within = rows[("reference", "listpatch", True)]
    assert within.verdict == "within noise" and within.diff == pytest.approx(0)
    assert [b["arm"] for b in frame.attrs["broken"]] == [across.baseline]
