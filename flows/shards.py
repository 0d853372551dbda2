"""A night spread over a Prefect work pool: the parent deals its trials into child flow runs of `nightly-shard`.

Parent side (``run_shards``, called by nightly-eval when the experiment has ``shards``): whole case
blocks are dealt into ``shards.count`` shards of about equal predicted work, longest-first inside
each, and every shard is launched as a flow run of the shard deployment with ``run_deployment(...,
timeout=0, idempotency_key=KEY)``. KEY is the parent flow run's id + the run id + the shard, so a
retried parent (the same flow run, as the UI's Retry and flow ``retries`` make it) gets back the
child runs it already made, running or finished, instead of making new ones. A child that ends
failed or crashed is launched again under the next key (``shards.retries``); its finished trials are
cached by trial id, so the new run does only the rest. While they run, the parent publishes
progress and the planner's ETA from the result files the children write.

Child side (``nightly_shard``): reads the manifest the parent wrote (it never pins again, so it runs
exactly the parent's trial ids), refuses a worker whose sandbox identity differs from the pins, and
runs its trials with ``run_all`` in its own process, with its slice of the concurrency and quota.

Every worker must see the run folder and the trial cache at the same path (one machine, or a shared
filesystem) and read the API key itself, from its environment or the Prefect Secret block the
experiment names (flows/endpoint.py): the key is never a parameter of a child flow run, so it is never
stored in, or returned by, the Prefect server; see docs/SCALING.md.
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

from prefect import flow, get_run_logger
from prefect.artifacts import create_progress_artifact, update_progress_artifact
from prefect.client.orchestration import get_client
from prefect.deployments import run_deployment
from prefect.runtime import flow_run

from nightshift.errors import OrchestrationError
from nightshift.experiment.config import Experiment
from nightshift.experiment.manifest import RunManifest, code_version
from nightshift.experiment.trials import expand_trials
from nightshift.flows import live_progress
from nightshift.flows.endpoint import SIMULATOR_KEY, Endpoint, api_key
from nightshift.flows.infra_alerts import InfraAlarm
from nightshift.flows.sync_calls import sync_value
from nightshift.flows.trial_context import load_run_cases, open_backend, open_gateway, trial_context
from nightshift.flows.trial_map import outcome_of, run_all
from nightshift.graders.metric import metric_sets
from nightshift.harnesses.pins import pin_harnesses
from nightshift.planner import Capacity, NightClock, TrialLoad, deal_shards
from nightshift.planner.night import NightPlan, capacity_of
from nightshift.planner.schedule import case_block
from nightshift.preflight import check_experiment
from nightshift.tasks.results import result_path


class ShardError(OrchestrationError):
    """A shard cannot run on this worker; the message says what differs and what to fix."""


@dataclass
class ShardOutcome:
    """How one shard ended: its trials and every child flow run it took."""

    shard: int
    trial_ids: list[str]
    flow_runs: list[str] = field(default_factory=list)
    state: str = "PENDING"


def lost_shards_message(lost: list[ShardOutcome], count: int, missing: int, parquet: Path) -> str:
    """Why a sharded night ends failed: which shards, how they ended, what is kept and how to go on."""
    which = "; ".join(f"shard {o.shard + 1} ended {o.state} after {len(o.flow_runs)} flow runs (last "
                      f"{o.flow_runs[-1]})" for o in lost)
    return (f"{len(lost)} of {count} shards did not complete: {which}. {missing} trials have no result; {parquet} "
            f"and the report hold the others. See the shard flow runs' logs (and their workers'), fix the cause, "
            f"and run the night again: finished trials are answered from their rows, only the rest runs")


def container_id() -> str | None:
    """The docker container this process runs in (its /etc/hostname comes from the engine's folder for it)."""
    found = re.search(r"/containers/([0-9a-f]{64})/", Path("/proc/self/mountinfo").read_text())
    return found.group(1) if found and Path("/.dockerenv").exists() else None


def shard_key(parent: str, run_id: str, shard: int, count: int, attempt: int = 0) -> str:
    """The idempotency key of one attempt of one shard: stable across retries of the same parent."""
    key = f"{parent}:{run_id}:shard-{shard + 1}-of-{count}"
    return key if attempt == 0 else f"{key}:rerun-{attempt}"


def _pause(seconds: float) -> None:
    """The parent's wait between checks on its children (a seam for tests that crash the parent here)."""
    time.sleep(seconds)


def _parent_key() -> str:
    if not flow_run.id:
        raise ShardError("run_shards needs a parent flow run (or an explicit parent_key)")
    return str(flow_run.id)


def run_shards(plan: NightPlan, exp: Experiment, experiment_file: Path, run_dir: Path, endpoint: Endpoint,
               parent_key: str | None = None, alarm: InfraAlarm | None = None) -> list[ShardOutcome]:
    """Run the planned night as ``exp.shards.count`` child flow runs; returns when every shard has ended.

    Every result a child writes is seen here as it lands: the progress artifact, the live bar of
    ``nightshift run`` and the infra alarm (``alarm``) count it as they do in an unsharded night."""

    logger = get_run_logger()
    settings = exp.shards
    if settings is None:
        raise ShardError("run_shards needs the experiment's 'shards' settings")
    count = settings.count
    parent = parent_key or _parent_key()
    groups = deal_shards(list(range(len(plan.specs))), count, lambda i: plan.loads[i].duration_s,
                         block=lambda i: case_block(plan.specs[i]))
    concurrency, share = max(1, math.ceil(exp.concurrency / count)), exp.model.share / count
    cap = plan.capacity
    capacity = Capacity(concurrency, cap.requests_per_minute and cap.requests_per_minute / count,
                        cap.tokens_per_minute and cap.tokens_per_minute / count, cap.gpu_cards)
    outcomes = [ShardOutcome(k, [plan.specs[i].trial_id for i in g]) for k, g in enumerate(groups)]
    results = run_dir / "results"
    before = {p.stem for p in results.glob("*.json")} if results.is_dir() else set()
    prior = 0.25 if plan.history else 0.0  # without history the loads are placeholders
    clocks = [NightClock([plan.loads[i] for i in g], capacity, prior_weight=prior) for g in groups]
    seen: list[set[str]] = [set() for _ in groups]
    position = [{t: i for i, t in enumerate(o.trial_ids)} for o in outcomes]

    def launch(o: ShardOutcome) -> None:
        attempt = len(o.flow_runs)
        parameters = {"experiment_file": str(experiment_file), "run_dir": str(run_dir), "trial_ids": o.trial_ids,
                      "predicted_s": [round(plan.loads[i].duration_s, 2) for i in groups[o.shard]] if prior else None,
                      "concurrency": concurrency, "share": share,
                      # a simulator started by the parent is reachable from this host only (docs/SCALING.md);
                      # never the key: each child reads it itself (flows/endpoint.py)
                      "endpoint_url": endpoint.base_url if endpoint.simulated else None}
        child = sync_value(run_deployment(settings.deployment, parameters=parameters, timeout=0,
                                          idempotency_key=shard_key(parent, run_dir.name, o.shard, count, attempt),
                                          flow_run_name=f"{run_dir.name}-shard-{o.shard + 1}of{count}"
                                                        + (f"-rerun{attempt}" if attempt else "")), "run_deployment")
        o.flow_runs.append(str(child.id))
        logger.info("shard %d/%d: %d trials → flow run %s", o.shard + 1, count, len(o.trial_ids), child.id)

    for o in outcomes:
        launch(o)
    total = len(plan.specs)
    progress = sync_value(create_progress_artifact(progress=0.0, key="nightly-eval-progress",
                                                   description=f"trials done of {total} in {count} shards"),
                          "create_progress_artifact")
    live_progress.started(total, len(before & {s.trial_id for s in plan.specs}))
    pending = set(range(count))
    while pending:
        present = {p.stem for p in results.glob("*.json")} if results.is_dir() else set()
        now = time.monotonic()
        for k, o in enumerate(outcomes):
            for trial in sorted(set(o.trial_ids) & present - seen[k], key=position[k].__getitem__):
                seen[k].add(trial)
                clocks[k].finished(position[k][trial], now, cached=trial in before)
                if trial not in before:  # answered from rows before the night: not this night's outcome
                    status, kind = outcome_of(run_dir, trial)
                    live_progress.finished(status)
                    if alarm is not None and (spike := alarm.observe(status, kind)):
                        live_progress.eta(spike)
        done = sum(len(s) for s in seen)
        left = max(c.remaining_s(now) for c in clocks)
        line = f"trials with a result: {done}/{total} in {count} shards; ETA in {left / 60:.1f} min (planner)"
        update_progress_artifact(progress, progress=100.0 * done / total, description=line)
        live_progress.eta(line)
        with get_client(sync_client=True) as client:
            for k in sorted(pending):
                o = outcomes[k]
                state = client.read_flow_run(UUID(o.flow_runs[-1])).state
                if state is None or not state.is_final():
                    continue
                o.state = state.type.value
                if state.is_completed():
                    pending.discard(k)
                elif len(o.flow_runs) <= settings.retries:
                    logger.warning("shard %d/%d ended %s; launching it again", k + 1, count, o.state)
                    launch(o)
                else:
                    logger.error("shard %d/%d ended %s after %d runs", k + 1, count, o.state, len(o.flow_runs))
                    pending.discard(k)
        if pending:
            _pause(settings.poll_s)
    logger.info(line)
    return outcomes


@flow(name="nightly-shard", log_prints=True)
def nightly_shard(experiment_file: str, run_dir: str, trial_ids: list[str], concurrency: int, share: float,
                  predicted_s: list[float] | None = None, endpoint_url: str | None = None) -> dict:
    """Run these trials of a night the parent pinned (run_dir/manifest.json), ``concurrency`` at a time."""


    logger = get_run_logger()
    path, run = Path(experiment_file).resolve(), Path(run_dir)
    checked = check_experiment(path)
    exp = checked.exp
    manifest = RunManifest.read(run / "manifest.json")
    backend = open_backend(exp)
    if backend.identity() != manifest.sandbox_identity:
        raise ShardError(f"worker {os.uname().nodename}: sandbox identity {backend.identity()} differs from the "
                         f"run's pin {manifest.sandbox_identity}; give every worker the same image")
    cases = load_run_cases(checked)
    metrics = metric_sets(cases, exp.metrics)
    if {suite: chosen.identities() for suite, chosen in metrics.items()} != manifest.metrics:
        raise ShardError(f"worker {os.uname().nodename}: the metrics here differ from the run's pins in "
                         f"manifest.json (a metric's version or settings); install the same metric packages on "
                         f"every worker")
    by_id = {s.trial_id: s for s in expand_trials(manifest, cases, exp.variants)}
    missing = [t for t in trial_ids if t not in by_id]
    if missing:
        raise ShardError(f"worker {os.uname().nodename}: {len(missing)} of this shard's trials are not trials of "
                         f"{path} here (first {missing[0][:12]}): its cases differ from the parent's; give every "
                         f"worker the same checkout")
    base_url, key = endpoint_url or exp.model.base_url, api_key(exp) or (SIMULATOR_KEY if endpoint_url else None)
    if not base_url or not key:
        raise ShardError(f"worker {os.uname().nodename}: no model endpoint: set model.base_url in {path} and "
                         f"export {exp.model.api_key_env} on every worker (or name a Prefect Secret block in "
                         f"model.api_key_secret)")
    pins = pin_harnesses(exp, checked.harnesses, backend, cases)  # this worker's derived images (same keys)
    for name, pinned in manifest.harnesses.items():
        here = pins.identities.get(name, {}).get("image_key")
        if pinned.get("image_key") != here:
            raise ShardError(f"worker {os.uname().nodename}: variant {name!r}'s harness image has content key "
                             f"{here} here, {pinned.get('image_key')} in the run's manifest: the base sandbox image "
                             f"or the install lines differ; give every worker the same checkout and base image")
    ctx = trial_context(exp, run, backend, open_gateway(exp, base_url, key, concurrency, share),
                        manifest.hidden_seed, pins, metrics)
    cap = capacity_of(exp)
    scale = share / exp.model.share
    capacity = Capacity(concurrency, cap.requests_per_minute and cap.requests_per_minute * scale,
                        cap.tokens_per_minute and cap.tokens_per_minute * scale, cap.gpu_cards)
    loads = [TrialLoad(p) for p in predicted_s] if predicted_s and len(predicted_s) == len(trial_ids) else None
    logger.info("shard of %s: %d trials, concurrency %d, quota share %.3f", run.name, len(trial_ids), concurrency,
                share)
    started = datetime.now(UTC).isoformat(timespec="milliseconds")
    run_all([by_id[t] for t in trial_ids], ctx, concurrency, exp.trial_cache(), exp.infra_retries,
            loads=loads, capacity=capacity)
    record = {"flow_run": str(flow_run.id), "worker": os.environ.get("PREFECT__WORKER_NAME"),
              "host": os.uname().nodename, "pid": os.getpid(), "container": container_id(),
              "image": os.environ.get("NIGHTSHIFT_WORKER_IMAGE"), "code_version": code_version(),
              "trials": len(trial_ids),
              "with_result": sum(result_path(run, t).is_file() for t in trial_ids), "started_at": started,
              "finished_at": datetime.now(UTC).isoformat(timespec="milliseconds")}
    # which worker ran which trials, next to the results (operators ask; the two-worker test checks it)
    (run / "shards").mkdir(exist_ok=True)
    (run / "shards" / f"{flow_run.id}.json").write_text(json.dumps(record, indent=1))
    return record
