"""Mapping run_trial over a list of trials on a bounded thread pool, with progress and the planner's ETA.

Both flows run their trials through ``run_all``: the parent for an unsharded night, each shard for its
slice. Finished trials are cached by trial id, so a re-run skips them and copies their rows in (a row from
another run says which, `reused_from`, and brings its trajectory, grade and diff along); trials
with a valid row in the run folder are answered from it before any Prefect task is made.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from prefect import Task, get_run_logger, unmapped
from prefect.artifacts import create_progress_artifact, update_progress_artifact
from prefect.client.schemas.objects import State
from prefect.futures import as_completed
from prefect.task_runners import ThreadPoolTaskRunner
from prefect.utilities.annotations import quote

from nightshift.experiment.trials import TrialSpec
from nightshift.flows import live_progress
from nightshift.flows.infra_alerts import InfraAlarm
from nightshift.flows.publishing import Publisher
from nightshift.models import TrialResult
from nightshift.planner import Capacity, NightClock, TrialLoad
from nightshift.tasks.artifacts import adopt_artefacts
from nightshift.tasks.disk_space import DiskFull, disk_full_message, is_disk_full, remove_empty_files
from nightshift.tasks.results import result_path, write_result
from nightshift.tasks.row_check import needs_row
from nightshift.tasks.run_trial import TrialContext, run_trial


def run_all(specs: list[TrialSpec], ctx: TrialContext, concurrency: int, cache_dir: Path | str, retries: int,
            loads: list[TrialLoad] | None = None, capacity: Capacity | None = None,
            trial_task: Task[[TrialSpec, TrialContext], State] = run_trial, alarm: InfraAlarm | None = None,
            finished: Mapping[str, object] | None = None, publisher: Publisher | None = None) -> NightClock:
    """Map run_trial over every trial in order, at most ``concurrency`` at once, publishing progress and the
    planner's ETA (``loads``: each trial's prediction; none: learned from the first trials) as they end.

    ``finished``: trials already answered by a valid row on disk; they get no Prefect task at all (a resume
    of a big night is then as fast as reading its rows), and the progress counts them as done.
    Finished trials are cached in ``cache_dir`` (a folder or a storage block slug) by trial id, so any later
    run with the same trial skips it. A full disk stops the night: DiskFull once the trials in flight ended.
    UI updates are best-effort (``publisher``): a Prefect API that goes away never stops a trial.
    ``alarm`` sees every finished trial and raises infra failure spike alerts (flows/infra_alerts.py).
    Returns the night's clock (its ``estimates`` are every ETA given).
    """
    logger = get_run_logger()
    publisher = publisher or Publisher()
    ctx.publisher = ctx.publisher or publisher  # the trials' own UI calls (task-run names) share its breaker
    finished = finished or {}
    todo = [(i, s) for i, s in enumerate(specs) if s.trial_id not in finished]
    total, before = len(specs), len(specs) - len(todo)
    trial_task = trial_task.with_options(result_storage=cache_dir, retries=retries)
    progress = publisher.call("progress artifact", create_progress_artifact, progress=100.0 * before / max(1, total),
                              key="nightly-eval-progress", description=f"trials done of {total}")
    live_progress.started(total, before)
    if before:
        logger.info("%d of %d trials are answered by their rows on disk; %d to run", before, total, len(todo))
    all_loads = loads or [TrialLoad(1.0)] * total
    clock = NightClock([all_loads[i] for i, _ in todo] or [TrialLoad(1.0)], capacity or Capacity(concurrency),
                       prior_weight=0.25 if loads else 0.0)
    if not todo:
        return clock
    disk_full: BaseException | None = None
    with ThreadPoolTaskRunner[State](max_workers=concurrency) as runner:
        # quote: Prefect would otherwise walk the whole context (gateway, backend, ...) for every trial
        trials = [s for _, s in todo]
        futures = runner.map(trial_task, {"spec": trials, "ctx": unmapped(quote(ctx))})
        position = {future.task_run_id: i for i, future in enumerate(futures)}
        step = max(1, len(todo) // 20)
        for done, future in enumerate(as_completed(futures), start=1):
            # a failed trial (infra error after its retries) already wrote its row; it must not stop the rest
            row = future.result(raise_on_failure=False)
            if isinstance(row, BaseException) and disk_full is None and is_disk_full(row):
                disk_full = row
            if isinstance(row, dict) and needs_row(ctx.run_dir, row["trial_id"]):
                # a cache hit from an earlier run (same trial id), or a row that was corrupt: write it here
                write_result(ctx.run_dir, reused_row(ctx.run_dir, row))
            clock.finished(position[future.task_run_id], recorded_s=row.get("duration_s") if isinstance(row, dict)
                           else None)
            watched = alarm is not None or live_progress.watched()
            outcome = outcome_of(ctx.run_dir, trials[position[future.task_run_id]].trial_id) if watched else None
            spike = alarm.observe(*outcome) if alarm and outcome else None
            if outcome and live_progress.watched():
                live_progress.finished(outcome[0])
            if spike or done % step == 0 or done == len(todo):
                line = clock.line() + (f" — {spike}" if spike else "")
                live_progress.eta(line)
                if progress is not None:
                    publisher.call("progress update", update_progress_artifact, progress,
                                   progress=100.0 * (before + done) / total, description=line)
                logger.info(line)
    if disk_full is not None:
        remove_empty_files(cache_dir)  # what Prefect began writing into the full disk
        raise DiskFull(disk_full_message(ctx.run_dir, total, str(disk_full)[:300])) from disk_full
    return clock


def reused_row(run_dir: Path, cached: dict) -> TrialResult:
    """The row of a trial answered from the trial cache, for this run: it names the run that ran the trial
    (``reused_from``), and that run's trajectory, grade and diff are linked into this one (tasks/artifacts.py).
    A cached row of this very run (a corrupt row answered again) is not a reuse."""
    source = cached.get("reused_from") or cached["run_id"]
    if source == run_dir.name:
        return TrialResult.model_validate(cached)
    adopt_artefacts(run_dir, cached["trial_id"], source)
    return TrialResult.model_validate({**cached, "run_id": run_dir.name, "reused_from": source})


def outcome_of(run_dir: Path, trial_id: str) -> tuple[str, str]:
    """(status, infra kind) from the trial's row; a trial without a row counts as an infra error."""
    try:
        row = TrialResult.model_validate_json(result_path(run_dir, trial_id).read_text())
    except (OSError, ValueError):
        return "infra_error", "unclassified"
    return row.status.value, row.infra_kind
