"""nightly-eval: pin the run, map every trial onto bounded concurrency, write Parquet and artifacts."""

from __future__ import annotations

import json
from pathlib import Path

from prefect import Task, flow, get_run_logger, unmapped
from prefect.artifacts import (
    create_link_artifact,
    create_markdown_artifact,
    create_progress_artifact,
    create_table_artifact,
    update_progress_artifact,
)
from prefect.futures import as_completed
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.utilities.annotations import quote

from nightshift.analysis import analyse
from nightshift.experiment.config import Experiment, load_experiment
from nightshift.experiment.manifest import ModelPin, RunManifest, build_manifest
from nightshift.experiment.trials import TrialSpec, expand_trials
from nightshift.flows.endpoint import model_endpoint
from nightshift.gateway import ModelGateway
from nightshift.graders import GRADER_VERSION, PublicTestGrader
from nightshift.models import Case, TrialResult
from nightshift.planner import Capacity, NightClock, TrialLoad
from nightshift.planner.night import plan_night
from nightshift.sandbox import backend_for
from nightshift.suites import load_cases
from nightshift.tasks.results import read_results, result_path, write_parquet, write_result
from nightshift.tasks.run_trial import TrialContext, run_trial

DEFAULT_EXPERIMENT = "experiments/default.yaml"  # relative to the project folder the flow runs in


def load_run_cases(exp: Experiment, experiment_file: Path) -> list[Case]:
    cases = [c for d in exp.suite_paths(experiment_file.parent) for c in load_cases(d)]
    if exp.cases is not None:
        from nightshift.suites.loader import SuiteError

        unknown = sorted(set(exp.cases) - {c.id for c in cases})
        if unknown:
            raise SuiteError(f"{experiment_file}: field 'cases': unknown case ids {unknown}; check the spelling")
        cases = [c for c in cases if c.id in set(exp.cases)]
    return cases


def pin_run(exp: Experiment, cases: list[Case], gateway: ModelGateway, base_url: str, sandbox_identity: str
            ) -> RunManifest:
    models = {v.name: ModelPin(model=v.model, version=gateway.resolve_model_version(v.model)) for v in exp.variants}
    return build_manifest(exp, cases, models, base_url, sandbox_identity, GRADER_VERSION)


def run_all(specs: list[TrialSpec], ctx: TrialContext, concurrency: int, cache_dir: Path | str, retries: int,
            loads: list[TrialLoad] | None = None, capacity: Capacity | None = None,
            trial_task: Task = run_trial) -> NightClock:
    """Map run_trial over every trial in order, at most ``concurrency`` at once, publishing progress and the
    planner's ETA (``loads``: each trial's prediction; none: learned from the first trials) as they end.

    Finished trials are cached in ``cache_dir`` (a folder or a storage block slug) by trial id, so any later
    run with the same trial skips it.
    Returns the night's clock (its ``estimates`` are every ETA given).
    """
    logger = get_run_logger()
    trial_task = trial_task.with_options(result_storage=cache_dir, retries=retries)
    progress = create_progress_artifact(progress=0.0, key="nightly-eval-progress",
                                        description=f"trials done of {len(specs)}")
    with ThreadPoolTaskRunner(max_workers=concurrency) as runner:
        clock = NightClock(loads or [TrialLoad(1.0)] * len(specs), capacity or Capacity(concurrency),
                           prior_weight=0.25 if loads else 0.0)
        # quote: Prefect would otherwise walk the whole context (gateway, backend, ...) for every trial
        futures = runner.map(trial_task, {"spec": specs, "ctx": unmapped(quote(ctx))})
        position = {future.task_run_id: i for i, future in enumerate(futures)}
        step = max(1, len(specs) // 20)
        for done, future in enumerate(as_completed(futures), start=1):
            # a failed trial (infra error after its retries) already wrote its row; it must not stop the rest
            row = future.result(raise_on_failure=False)
            if isinstance(row, dict) and not result_path(ctx.run_dir, row["trial_id"]).is_file():
                # a cache hit from an earlier run (same trial id): copy its row into this run
                write_result(ctx.run_dir, TrialResult.model_validate({**row, "run_id": ctx.run_dir.name}))
            clock.finished(position[future.task_run_id], recorded_s=row.get("duration_s") if isinstance(row, dict)
                           else None)
            if done % step == 0 or done == len(specs):
                line = clock.line()
                update_progress_artifact(progress, progress=100.0 * done / len(specs), description=line)
                logger.info(line)
    return clock


@flow(name="nightly-eval", log_prints=True)
def nightly_eval(experiment_file: str = DEFAULT_EXPERIMENT) -> dict:
    """Run one experiment file end to end; returns the run folder and the scores."""
    logger = get_run_logger()
    path = Path(experiment_file).resolve()
    exp = load_experiment(path)
    cases = load_run_cases(exp, path)
    backend = backend_for(exp.sandbox.backend, exp.sandbox.image)
    reaped = backend.reap()
    if reaped:
        logger.warning("removed %d sandboxes left by dead runs", reaped)
    with model_endpoint(exp, exp.suite_paths(path.parent), exp.output_dir / ".simulator") as endpoint:
        gateway = ModelGateway.from_settings(endpoint.base_url, endpoint.api_key, exp.model,
                                             concurrency_slots=exp.concurrency)
        manifest = pin_run(exp, cases, gateway, "simulator" if endpoint.simulated else endpoint.base_url,
                           backend.identity())
        run_dir = exp.output_dir / manifest.run_id
        manifest.write(run_dir / "manifest.json")
        specs = expand_trials(manifest, cases, exp.variants)
        logger.info("run %s: %d cases × %d variants × %d seeds = %d trials", manifest.run_id, len(cases),
                    len(exp.variants), len(exp.seeds), len(specs))
        night = plan_night(specs, exp, path, manifest.run_id)  # longest-predicted-first when history exists
        logger.info(night.summary())
        ctx = TrialContext(run_dir=run_dir, backend=backend, gateway=gateway, limits=exp.sandbox.limits,
                           grader=PublicTestGrader())
        pinned = endpoint.simulator_requests()
        if exp.shards:
            from nightshift.flows.shards import run_shards

            run_shards(night, exp, path, run_dir, endpoint)
        else:
            run_all(night.specs, ctx, exp.concurrency, exp.trial_cache(), exp.infra_retries,
                    loads=night.loads if night.history else None, capacity=night.capacity)
        served = endpoint.simulator_requests()
    rows = read_results(run_dir, [s.trial_id for s in specs])
    parquet = write_parquet(rows, run_dir / "results.parquet")
    summary = publish(run_dir, parquet, len(specs), baseline=exp.variants[0].name)
    for key, path, what in (("nightly-eval-results", parquet, "the run's Parquet file"),
                            ("nightly-eval-report-file", run_dir / "report.md", "the run's report")):
        create_link_artifact(key=key, link=path.as_uri(), link_text=str(path), description=what)
    summary["model_calls_this_invocation"] = served - pinned if endpoint.simulated else "n/a (real endpoint)"
    logger.info("model calls by trials this invocation: %s", summary["model_calls_this_invocation"])
    return summary


def publish(run_dir: Path, parquet: Path, expected: int, baseline: str) -> dict:
    """Analyse the run, write report.md / report.html / summary.json into it, and publish Prefect artifacts."""
    from nightshift.analysis.paired import as_dicts
    from nightshift.analysis.report import blocks, to_markdown, write_report

    result = analyse([parquet], baseline=baseline)
    title = f"nightly-eval {run_dir.name}"
    md, page = write_report(result, run_dir, title)
    short = to_markdown(blocks(result, title, detail=False)) + f"\nFull report: `{page}`\n"
    create_table_artifact(key="nightly-eval-summary", table=result.scores, description=f"scores of {run_dir.name}")
    create_markdown_artifact(key="nightly-eval-report", markdown=short, description=f"report of {run_dir.name}")
    differences = as_dicts([c for c in result.comparisons if c.scope == "all"])
    summary = {"run_dir": str(run_dir), "parquet": str(parquet), "trials": expected, "scores": result.scores,
               "differences": differences, "verdicts": [c.line for c in result.headline()],
               "report_md": str(md), "report_html": str(page)}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary
