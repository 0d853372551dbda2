"""A finished night on disk without running it: every trial of an experiment gets the row its trial would
have written, in the run folder `nightshift run` of that experiment will use.

The pins are made by the nightly flow's own steps (cases, suite validation, metrics, sandbox identity, harness
pins, model versions from the endpoint, manifest, trial expansion), so the run id and trial ids are the ones
the flow computes. ``bench.resume_bench`` then times `nightshift run` of the night end to end, as a user waits
for it. Should the two ever disagree, the run would start real trials: the caller checks that it made no model
call and wrote into this run folder only.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from prefect import flow

from nightshift.experiment.trials import TrialSpec, expand_trials
from nightshift.flows.endpoint import model_endpoint
from nightshift.flows.nightly_eval import check_suites_validated, pin_run
from nightshift.flows.trial_context import load_run_cases, open_backend, open_gateway
from nightshift.graders.metric import metric_sets
from nightshift.harnesses.pins import pin_harnesses
from nightshift.models import TrialResult, TrialStatus
from nightshift.preflight import check_experiment
from nightshift.tasks.results import write_result


def finished_row(spec: TrialSpec, index: int) -> TrialResult:
    """What a trial of a simulated model leaves: resolved about two times in three, a few calls and seconds."""
    resolved = (index * 7 + spec.seed) % 3 != 0
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return TrialResult(trial_id=spec.trial_id, run_id=spec.run_id, case_id=spec.case.id, suite=spec.case.suite,
                       domain=spec.case.domain, split=spec.case.split, variant=spec.variant.name,
                       model=spec.variant.model, model_version=spec.model_version, seed=spec.seed,
                       status=TrialStatus.resolved if resolved else TrialStatus.failed, score=float(resolved),
                       steps=4, model_calls=4, input_tokens=2400, output_tokens=400, agent_s=3.0, grade_s=0.5,
                       duration_s=3.6, started_at=now, finished_at=now)


@flow(name="seed-finished-night")
def write_finished_night(experiment_file: str) -> dict:
    """Write every trial's row of the experiment's night; its run folder and trial count."""
    path = Path(experiment_file).resolve()
    checked = check_experiment(path)
    exp = checked.exp
    cases = load_run_cases(checked)
    validation = check_suites_validated(checked, cases)
    metrics = metric_sets(cases, exp.metrics)
    backend = open_backend(exp)
    pins = pin_harnesses(exp, checked.harnesses, backend, cases)
    with model_endpoint(exp, checked.suite_dirs, exp.output_dir / ".simulator") as endpoint:
        gateway = open_gateway(exp, endpoint.base_url, endpoint.api_key, exp.concurrency)
        manifest = pin_run(exp, cases, gateway, "simulator", backend.identity(), validation, pins.identities,
                           metrics)
    run_dir = exp.output_dir / manifest.run_id
    manifest.write(run_dir / "manifest.json")
    specs = expand_trials(manifest, cases, exp.variants)
    for i, spec in enumerate(specs):
        write_result(run_dir, finished_row(spec, i))
    return {"run_dir": str(run_dir), "trials": len(specs)}
