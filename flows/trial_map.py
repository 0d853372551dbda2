"""Mapping run_trial over a list of trials on a bounded thread pool, with progress and the planner's ETA.

Both flows run their trials through ``run_all``: the parent for an unsharded night, each shard for its
slice. Finished trials are cached by trial id, so a re-run skips them and copies their rows in.
"""

from __future__ import annotations

from pathlib import Path

from prefect import Task, get_run_logger, unmapped
from prefect.artifacts import create_progress_artifact, update_progress_artifact
from prefect.futures import as_completed
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.utilities.annotations import quote

from nightshift.experiment.trials import TrialSpec
from nightshift.flows.infra_alerts import InfraAlarm
from nightshift.models import TrialResult
from nightshift.planner import Capacity, NightClock, TrialLoad
from nightshift.tasks.results import result_path, write_result
from nightshift.tasks.run_trial import TrialContext, run_trial


def run_all(specs: list[TrialSpec], ctx: TrialContext, concurrency: int, cache_dir: Path | str, retries: int,
            loads: list[TrialLoad] | None = None, capacity: Capacity | None = None,
            trial_task: Task = run_trial, alarm: InfraAlarm | None = None) -> NightClock:
    """Map run_trial over every trial in order, at most ``concurrency`` at once, publishing progress and the
    planner's ETA (``loads``: each trial's prediction; none: learned from the first trials) as they end.

    Finished trials are cached in ``cache_dir`` (a folder or a storage block slug) by trial id, so any later
    run with the same trial skips it.
    ``alarm`` sees every finished trial and raises infra failure spike alerts (flows/infra_alerts.py).
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
            spike = alarm.observe(*_outcome(ctx.run_dir, specs[position[future.task_run_id]])) if alarm else None
            if spike or done % step == 0 or done == len(specs):
                line = clock.line() + (f" — {spike}" if spike else "")
                update_progress_artifact(progress, progress=100.0 * done / len(specs), description=line)
                logger.info(line)
    return clock


def _outcome(run_dir: Path, spec: TrialSpec) -> tuple[str, str]:
    """(status, infra kind) from the trial's row; a trial without a row counts as an infra error."""
    try:
        row = TrialResult.model_validate_json(result_path(run_dir, spec.trial_id).read_text())
    except (OSError, ValueError):
        return "infra_error", "unclassified"
    return row.status.value, row.infra_kind
