"""nightly-eval: pin the run, map every trial onto bounded concurrency, write Parquet and artifacts."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from prefect import flow, get_run_logger
from prefect.artifacts import create_link_artifact, create_markdown_artifact, create_table_artifact

from nightshift.analysis import analyse
from nightshift.analysis.paired import as_dicts
from nightshift.analysis.report import blocks, to_markdown, write_report
from nightshift.analysis.tables import SCORE_HEADERS, drop_empty, score_rows
from nightshift.atomic_files import atomic_write_text
from nightshift.errors import BROKEN_ARM_EXIT_CODE
from nightshift.experiment.config import Experiment
from nightshift.experiment.manifest import ModelPin, RunManifest, build_manifest
from nightshift.experiment.trials import expand_trials
from nightshift.flows import protected_night
from nightshift.flows.endpoint import model_endpoint
from nightshift.flows.infra_alerts import InfraAlarm
from nightshift.flows.night_rows import assemble_rows, prepare_rows
from nightshift.flows.protected_night import record_refusal
from nightshift.flows.publishing import EXIT_DEADLINE_S, Publisher, api_answers, arm_exit_deadline
from nightshift.flows.replay import record_night
from nightshift.flows.shards import ShardError, ShardOutcome, lost_shards_message, run_shards
from nightshift.flows.stale_runs import hold_run
from nightshift.flows.trial_context import load_run_cases, open_backend, open_gateway, trial_context
from nightshift.flows.trial_map import run_all
from nightshift.gateway import ModelGateway
from nightshift.graders import GRADER_VERSION
from nightshift.graders.metric import MetricSet, metric_sets
from nightshift.graders.scanning import ScannerSet
from nightshift.harnesses.install_copies import write_run_file
from nightshift.harnesses.pins import pin_harnesses
from nightshift.links import run_url, view_command
from nightshift.models import Case
from nightshift.planner.night import plan_night
from nightshift.preflight import CheckedExperiment, check_experiment
from nightshift.splits import SplitAccessError
from nightshift.splits.grants import unsealed_warning
from nightshift.suites.validation import run_validation_pins
from nightshift.tasks.disk_space import DiskFull, disk_full_message, is_disk_full
from nightshift.tasks.results import write_parquet

DEFAULT_EXPERIMENT = "experiments/default.yaml"  # relative to the project folder the flow runs in


def pin_run(exp: Experiment, cases: list[Case], gateway: ModelGateway, base_url: str, sandbox_identity: str,
            suite_validation: dict[str, str] | None = None, harnesses: dict[str, dict] | None = None,
            metrics: dict[str, MetricSet] | None = None, scanners: ScannerSet | None = None) -> RunManifest:
    models = {v.name: ModelPin(model=v.model, version=gateway.resolve_model_version(v.model)) for v in exp.variants}
    pins = {suite: chosen.identities() for suite, chosen in (metrics or {}).items()}
    return build_manifest(exp, cases, models, base_url, sandbox_identity, GRADER_VERSION, suite_validation,
                          harnesses, pins, scanner_pins(scanners, gateway))


def scanner_pins(scanners: ScannerSet | None, gateway: ModelGateway) -> list[dict]:
    """The scanners' identities; one that asks a model (the judge) also pins the version the endpoint serves."""
    identities = scanners.identities() if scanners else []
    for identity, active in zip(identities, scanners.scanners if scanners else [], strict=True):
        model = getattr(active.call, "model", None)
        if getattr(active.call, "asks_model", False) and isinstance(model, str):
            identity["model_version"] = gateway.resolve_model_version(model)
    return identities


def metric_columns(metrics: dict[str, MetricSet]) -> dict[str, dict[str, str]]:
    """Every metric column of the run (name -> unit and direction), in the order the suites name them."""
    return {name: meta for chosen in metrics.values() for name, meta in chosen.columns().items()}


def check_suites_validated(checked: CheckedExperiment, cases: list[Case]) -> dict[str, str]:
    """Refuse a suite that is unvalidated or changed since validate-suite, unless allow_unvalidated: true."""
    folders = list(zip(checked.exp.suites, checked.suite_dirs, strict=True))
    return run_validation_pins(folders, cases, GRADER_VERSION, checked.exp.allow_unvalidated, checked.file)


@flow(name="nightly-eval", log_prints=True)
def nightly_eval(experiment_file: str = DEFAULT_EXPERIMENT) -> dict:
    """Run one experiment file end to end; returns the run folder and the scores."""
    logger = get_run_logger()
    publisher = Publisher()  # every UI update is best-effort: Prefect is the control plane, not the data plane
    path = Path(experiment_file).resolve()
    checked = check_experiment(path)  # everything the file names, resolved once for the night
    exp = checked.exp
    try:
        cases = load_run_cases(checked)  # a sealed case needs its key; no protected case meets a network
    except SplitAccessError as exc:
        record_refusal(exp, exc)
        raise
    if warning := unsealed_warning(cases):
        logger.warning(warning)
    validation = check_suites_validated(checked, cases)  # before anything starts
    metrics = metric_sets(cases, exp.metrics)  # resolved once: the manifest pins exactly these
    scanners = ScannerSet.build(exp.scanners)
    backend = open_backend(exp)
    pins = pin_harnesses(exp, checked.harnesses, backend, cases)  # a command harness's images, built once
    for line in pins.warnings():  # an agent's install that holds the package under test (install_copies.py)
        logger.warning(line)
    with model_endpoint(exp, checked.suite_dirs, exp.output_dir / ".simulator") as endpoint:
        gateway = open_gateway(exp, endpoint.base_url, endpoint.api_key, exp.concurrency)
        manifest = pin_run(exp, cases, gateway, "simulator" if endpoint.simulated else endpoint.base_url,
                           backend.identity(), validation, pins.identities, metrics, scanners)
        run_dir = exp.output_dir / manifest.run_id
        with hold_run(run_dir, publisher):  # one writer per run: a second copy of this night is refused
            # budgets (the experiment's, each suite's) and the audit log: before any trial
            protected = protected_night.start(exp, path, manifest, cases, checked.suite_dirs)
            manifest.write(run_dir / "manifest.json")
            write_run_file(run_dir, pins.agent_copies)  # what answer_in_agent_install reads, again at a re-scan
            record_night(run_dir, path, exp, manifest, cases, checked.suite_dirs)  # the suite version, kept to replay
            specs = expand_trials(manifest, cases, exp.variants)
            logger.info("run %s: %d cases × %d variants × %d seeds = %d trials", manifest.run_id, len(cases),
                        len(exp.variants), len(exp.seeds), len(specs))
            night = plan_night(specs, exp, path, manifest.run_id)  # longest-predicted-first when history exists
            logger.info(night.summary())
            history = [Path(s).parent for s in night.history.sources] if night.history else []
            on_disk = prepare_rows(run_dir, specs, exp.trial_cache(), history)
            pinned = endpoint.simulator_requests()
            ctx = trial_context(exp, run_dir, backend, gateway, manifest.hidden_seed, pins, metrics, scanners)
            alarm = InfraAlarm(exp.alerts, manifest.run_id, logger) if exp.alerts else None

            def answer(trials: list, finished: dict | None = None, loads: list | None = None) -> None:
                run_all(trials, ctx, exp.concurrency, exp.trial_cache(), exp.infra_retries, loads=loads,
                        capacity=night.capacity, alarm=alarm, finished=finished, publisher=publisher)

            lost: list[ShardOutcome] = []
            if exp.shards:
                lost = [o for o in run_shards(night, exp, path, run_dir, endpoint, alarm=alarm)
                        if o.state != "COMPLETED"]
            else:
                answer(night.specs, on_disk.finished(), night.loads if night.history else None)
            if alarm:
                alarm.verdict(run_dir)
            rows = assemble_rows(run_dir, specs, answer)
            if protected:
                protected.finish(rows)
            served = endpoint.simulator_requests()
            try:
                parquet = write_parquet(rows, run_dir / "results.parquet", metric_columns(metrics))
                summary = publish(run_dir, parquet, len(specs), baseline=exp.variants[0].name, publisher=publisher)
            except OSError as exc:
                if not is_disk_full(exc):
                    raise
                raise DiskFull(disk_full_message(run_dir, len(specs), "writing the Parquet file and report")) from exc
    for key, file, what in (("nightly-eval-results", parquet, "the run's Parquet file"),
                            ("nightly-eval-report-file", run_dir / "report.md", "the run's report")):
        publisher.call("link artifact", create_link_artifact, key=key, link=file.as_uri(), link_text=str(file),
                       description=what)
    publisher.call("viewer link artifact", create_link_artifact, key="nightly-eval-viewer",
                   link=summary["viewer_url"], link_text="trajectory viewer",
                   description=f"every trial of the run; start the viewer with `{summary['view_command']}`")
    if lost and exp.shards:  # after the files and artifacts: what the other shards finished is kept and shown
        raise ShardError(lost_shards_message(lost, exp.shards.count, len(specs) - len(rows), parquet))
    summary["model_calls_this_invocation"] = (served - pinned if served is not None and pinned is not None
                                              else "n/a (real endpoint)")  # both None exactly when not simulated
    logger.info("model calls by trials this invocation: %s", summary["model_calls_this_invocation"])
    for line in summary["broken_lines"]:  # in the flow run's logs too, for a night started from a deployment
        logger.warning(line)
    # the CLI ends 5 on a broken arm; a process that must be cut short ends the same way
    code = BROKEN_ARM_EXIT_CODE if summary["broken_lines"] and os.environ.get("NIGHTSHIFT_OWNS_PROCESS") else 0
    if (publisher.unreachable or not api_answers()) and arm_exit_deadline(code):
        logger.warning("the Prefect API went away during the night; files are written, and this process exits "
                       "within %.0f s even if Prefect cannot deliver its queued events", EXIT_DEADLINE_S)
    return summary


def publish(run_dir: Path, parquet: Path, expected: int, baseline: str, publisher: Publisher | None = None
            ) -> dict:
    """Analyse the run, write report.md / report.html / summary.json into it, then publish Prefect artifacts
    (best-effort: the files never depend on the API)."""

    result = analyse([parquet], baseline=baseline)
    title = f"nightly-eval {run_dir.name}"
    md, page = write_report(result, run_dir, title)
    short = (to_markdown(blocks(result, title, detail=False)) + f"\nFull report: `{page}`\n\nEvery trial: "
             f"[trajectory viewer]({run_url(run_dir.name)}) (start it with `{view_command(run_dir)}`)\n")
    headers, rows = drop_empty(SCORE_HEADERS, score_rows(result.scores))  # formatted as in the report
    differences = as_dicts([c for c in result.comparisons if c.scope == "all"])
    summary = {"run_dir": str(run_dir), "parquet": str(parquet), "trials": expected, "scores": result.scores,
               "differences": differences, "verdicts": [c.line for c in result.headline()],
               "infra": result.info.get("infra", []), "reused": result.info.get("reused", []),
               "flags": result.info.get("flags", []),
               "broken_arms": [asdict(b) for b in result.broken], "broken_lines": result.broken_lines(),
               "metrics": result.info["metrics"],
               "metric_verdicts": {m["name"]: [c.line for c in result.headline(m["name"])]
                                   for m in result.info["metrics"]},
               "report_md": str(md), "report_html": str(page), "viewer_url": run_url(run_dir.name),
               "view_command": view_command(run_dir)}
    atomic_write_text(run_dir / "summary.json", json.dumps(summary, indent=2, default=str))
    publisher = publisher or Publisher()
    publisher.call("summary artifact", create_table_artifact, key="nightly-eval-summary",
                   table=[dict(zip(headers, r, strict=True)) for r in rows], description=f"scores of {run_dir.name}")
    publisher.call("report artifact", create_markdown_artifact, key="nightly-eval-report", markdown=short,
                   description=f"report of {run_dir.name}")
    return summary
