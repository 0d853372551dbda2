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
from nightshift.preflight import CheckedExperiment
from nightshift.sandbox import backend_for
from nightshift.scratch import reap_scratch
from nightshift.suites import load_cases
from nightshift.tasks.run_trial import TrialContext


def load_run_cases(checked: CheckedExperiment) -> list[Case]:
    """Every case of the experiment's suites, narrowed to ``cases`` when the experiment lists them."""
    exp = checked.exp
    cases = [c for d in checked.suite_dirs for c in load_cases(d)]
    if exp.cases is not None:
        unknown = sorted(set(exp.cases) - {c.id for c in cases})
        if unknown:
            raise SuiteError(f"{checked.file}: field 'cases': unknown case ids {unknown}; check the spelling")
        cases = [c for c in cases if c.id in set(exp.cases)]
    return cases


def open_backend(exp: Experiment) -> SandboxBackend:
    """The experiment's sandbox backend, after removing the sandboxes that dead runs left behind."""
    backend = backend_for(exp.sandbox.backend, exp.sandbox.image)
    reaped = backend.reap()
    if reaped:
        get_run_logger().warning("removed %d sandboxes left by dead runs", reaped)
    scratch = reap_scratch()  # generated hidden tests and simulator files of killed processes
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
                        variant_case_images=pins.case_images, metrics=dict(metrics or {}),
                        scanners=scanners or ScannerSet.build(exp.scanners), flag_policy=exp.flags.actions())
