"""What a night's trials share, built in one place for both flows: the run's cases, the sandbox
backend (dead runs' sandboxes reaped), the gateway at this process's share of the quota, the grader
(with the night's hidden seed from the manifest, so parent and shards grade against the same tests, and the
host's timing pool for cases graded by speed).

nightly-eval (the parent) and nightly-shard (a child on a work pool) both call ``open_backend``,
``open_gateway`` and ``trial_context``, so a new per-trial dependency is added here once and reaches
every way a night runs.
"""

from __future__ import annotations

from pathlib import Path

from prefect import get_run_logger

from nightshift.contracts import SandboxBackend
from nightshift.errors import SuiteError
from nightshift.experiment.config import Experiment
from nightshift.gateway import ModelGateway
from nightshift.gpu import timing_pool
from nightshift.graders import CaseGrader
from nightshift.graders.metric import MetricSet
from nightshift.graders.scanning import ScannerSet
from nightshift.harnesses.pins import HarnessPins
from nightshift.models import Case
from nightshift.plugins import SANDBOXES
from nightshift.preflight import CheckedExperiment
from nightshift.sandbox import backend_for
from nightshift.scratch import private_root, reap_scratch
from nightshift.splits import SplitAccessError
from nightshift.splits.grants import network_problems
from nightshift.suites import load_cases
from nightshift.suites.loader import case_folders
from nightshift.tasks.run_trial import TrialContext


def load_run_cases(checked: CheckedExperiment) -> list[Case]:
    """Every case of the experiment's suites, narrowed to ``cases`` when the experiment lists them. Sealed cases
    chosen need their split's key, and no protected case may meet a network: both refused here, before any
    trial, naming the split, the cases and the fix."""
    exp = checked.exp
    folders = {d: [f.name for f in case_folders(d)] for d in checked.suite_dirs}
    if exp.cases is not None:
        unknown = sorted(set(exp.cases) - {name for names in folders.values() for name in names})
        if unknown:
            raise SuiteError(f"{checked.file}: field 'cases': unknown case ids {unknown}; check the spelling")
    cases = [c for d, names in folders.items()
             for c in load_cases(d, [n for n in names if n in set(exp.cases)] if exp.cases is not None else None,
                                 key_secrets=exp.key_secrets())]
    backend = SANDBOXES.resolve(exp.sandbox.backend).target
    problems = network_problems(cases, exp.sandbox.backend, bool(getattr(backend, "network_free", False)))
    if problems:
        raise SplitAccessError(f"{checked.file}: " + "\n".join(problems), splits=tuple(sorted(
            {c.split for c in cases if c.protected})), kind="network")
    return cases


def open_backend(exp: Experiment) -> SandboxBackend:
    """The experiment's sandbox backend, after removing the sandboxes that dead runs left behind."""
    backend = backend_for(exp.sandbox.backend, exp.sandbox.image)
    reaped = backend.reap()
    if reaped:
        get_run_logger().warning("removed %d sandboxes left by dead runs", reaped)
    # generated hidden tests and simulator files of killed processes; protected cases they had opened
    scratch = reap_scratch() + reap_scratch(private_root())
    if scratch:
        get_run_logger().warning("removed %d scratch folders left by dead processes", scratch)
    return backend


def open_gateway(exp: Experiment, base_url: str, api_key: str, concurrency: int,
                 share: float | None = None) -> ModelGateway:
    """The gateway of this process: ``concurrency`` trials in flight, ``share`` of the model quota
    (default: the experiment's own ``model.share``; a shard gets its slice of it)."""
    settings = exp.model if share is None else exp.model.model_copy(update={"share": share})
    return ModelGateway.from_settings(base_url, api_key, settings, concurrency_slots=concurrency)


def trial_context(exp: Experiment, run_dir: Path, backend: SandboxBackend, gateway: ModelGateway,
                  hidden_seed: int, pins: HarnessPins | None = None,
                  metrics: dict[str, MetricSet] | None = None, scanners: ScannerSet | None = None) -> TrialContext:
    """The context every trial of this process gets; ``hidden_seed`` is the manifest's night seed;
    ``pins``: a command harness's derived images per variant (harnesses/pins.py); ``metrics``:
    each suite's MetricSet as the manifest pins it (graders.metric.metric_sets); ``scanners``: the run's
    scanners (default: the experiment's, resolved here) and its flag policy."""
    pins = pins or HarnessPins()
    return TrialContext(run_dir=run_dir, backend=backend, gateway=gateway, limits=exp.sandbox.limits,
                        grader=CaseGrader(hidden_seed=hidden_seed, timing_pool=timing_pool(exp.gpu)),
                        harnesses=pins.resolved, variant_backends=pins.backends,
                        variant_case_images=pins.case_images, agent_copies=pins.agent_copies,
                        metrics=dict(metrics or {}),
                        key_secrets=exp.key_secrets(),
                        scanners=scanners or ScannerSet.build(exp.scanners), flag_policy=exp.flags.actions())
