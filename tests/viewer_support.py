"""A small real run folder for the viewer tests: real simulator over HTTP, bubblewrap sandboxes, the case grader.

Trials run through ``execute_trial`` + ``write_result`` (what the Prefect task does, without the flow's
start-up cost), so the folder has exactly what a night leaves: rows, trajectories, grades, diffs, Parquet.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from nightshift.contracts import SandboxBackend, SandboxLimits
from nightshift.experiment.config import ModelEndpoint, Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders import CaseGrader
from nightshift.models import Case
from nightshift.simulator.config import SimulatorConfig
from nightshift.simulator.embedded import running_simulator
from nightshift.tasks.results import read_results, write_parquet, write_result
from nightshift.tasks.run_trial import TrialContext, execute_trial

PUBLIC = ["sh-csv-column-sum", "py-bugfix-slugify"]
HELD_OUT = "py-feature-semver"  # split = "heldout" in its case.toml


def make_run(run_dir: Path, cases: list[Case], variants: list[str], seeds: list[int], suite: Path,
             backend: SandboxBackend) -> list[str]:
    """Run every case × variant × seed into ``run_dir``; returns the trial ids in order."""
    log = run_dir.parent / f".{run_dir.name}-sim.jsonl"
    with running_simulator(SimulatorConfig(latency_ms=1), [suite], log) as url:
        gateway = ModelGateway.from_settings(url, "sk-viewer-test", ModelEndpoint(), concurrency_slots=2)
        ctx = TrialContext(run_dir=run_dir, backend=backend, gateway=gateway, limits=SandboxLimits(),
                           grader=CaseGrader())
        specs = [TrialSpec(trial_id=f"{run_dir.name}-{c.id}-{v}-{s}", run_id=run_dir.name, case=c,
                           variant=Variant(name=v, model=f"sim-{v}"), seed=s, model_version=f"sim-{v}-test")
                 for c in cases for v in variants for s in seeds]
        with ThreadPoolExecutor(2) as pool:
            for row in pool.map(lambda spec: execute_trial(spec, ctx), specs):
                write_result(run_dir, row)
    ids = [s.trial_id for s in specs]
    write_parquet(read_results(run_dir, ids), run_dir / "results.parquet")
    return ids
