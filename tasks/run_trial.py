"""The life of one trial, readable top to bottom: sandbox → harness → grader → result row.

``execute_trial`` is plain Python (tests call it directly); ``run_trial`` is the Prefect task around
it, cached by trial id so a re-run, a resumed run or a UI retry never runs a finished trial twice.
An infrastructure failure raises ``InfraError`` after its row is written: Prefect retries it, and
since a failed task is never cached, a later run tries it again rather than keeping the failure.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from prefect import get_run_logger, task
from prefect.states import Completed, Failed, State

from nightshift.contracts import Grader, SandboxBackend, SandboxLimits
from nightshift.errors import InfrastructureError, StorageError
from nightshift.experiment.config import Variant
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import ModelGateway
from nightshift.graders.images import case_sandbox_spec
from nightshift.graders.metric import MetricSet, default_metrics, host_files, workspace_files
from nightshift.graders.scanning import PolicyAction, ScannerSet
from nightshift.harnesses.resolve import ResolvedHarness, resolve_harness
from nightshift.harnesses.runner import run_harness
from nightshift.metrics import TrialFacts
from nightshift.models import AgentOutcome, Case, GradeResult, TrialResult, TrialStatus
from nightshift.scratch import private_root, scratch
from nightshift.suites.loader import open_case
from nightshift.tasks.artifacts import (
    keep_workspace_diff,
    sealed_trajectory_path,
    take_workspace_diff,
    trajectory_path,
    write_grade,
)
from nightshift.tasks.disk_space import DiskFull, is_disk_full
from nightshift.tasks.results import write_result
from nightshift.tasks.sealed_files import redacted_reason, seal_trajectory
from nightshift.tasks.trial_scan import apply_policy, scan_accounting, scan_trial
from nightshift.tasks.trial_state import name_task_run, outcome_line

if TYPE_CHECKING:  # the flows hand it down; tasks/ sit below flows/ and import nothing of them at run time
    from nightshift.flows.publishing import Publisher


class InfraError(InfrastructureError, RuntimeError):
    """The trial could not be evaluated for reasons that are not the agent's (sandbox, endpoint, grader)."""


@dataclass
class TrialContext:
    """Process-wide things every trial of a run shares."""

    run_dir: Path
    backend: SandboxBackend
    gateway: ModelGateway
    limits: SandboxLimits
    grader: Grader
    harnesses: dict[str, ResolvedHarness] = field(default_factory=dict)
    """Variant name -> its harness, resolved once for the night (nightshift.preflight) and handed down here."""
    variant_backends: dict[str, SandboxBackend] = field(default_factory=dict)  # a command harness's derived image
    variant_case_images: dict[str, dict[str, str]] = field(default_factory=dict)  # ... on each case image
    agent_copies: dict[str, dict[str, list[dict]]] = field(default_factory=dict)
    """Variant -> case id -> copies of the case's package its install lets a trial read (harnesses/install_copies)."""
    halt: threading.Event = field(default_factory=threading.Event)
    """Set when the night must stop (a full disk): trials not yet started end at once, unrun and uncached."""
    metrics: dict[str, MetricSet] = field(default_factory=dict)  # suite name -> its metrics (manifest-pinned)
    key_secrets: dict[str, str] = field(default_factory=dict)
    """Protected split -> the Prefect Secret block holding its key (names only: keys never travel in here)."""
    scanners: ScannerSet = field(default_factory=ScannerSet.build)  # every built-in unless the experiment names some
    flag_policy: dict[str, PolicyAction] = field(default_factory=dict)  # severity -> report|fail (``flags:``)
    publisher: Publisher | None = None
    """The night's flows.publishing.Publisher (set by run_all): UI-only calls go through it, with its deadline
    and circuit breaker, so a dead Prefect server never holds a trial up for the client's retries."""

    def harness_for(self, variant: Variant) -> ResolvedHarness:
        """The variant's resolved harness; one this context was not handed is resolved now, once, and kept."""
        if variant.name not in self.harnesses:
            self.harnesses[variant.name] = resolve_harness(variant.harness)
        return self.harnesses[variant.name]

    def metrics_for(self, case: Case) -> MetricSet:
        if case.suite not in self.metrics:
            self.metrics[case.suite] = default_metrics()
        return self.metrics[case.suite]


class NightHalted(StorageError, RuntimeError):
    """This trial was not run because the night is stopping; a re-run runs it."""


def decide_status(outcome: AgentOutcome, grade: GradeResult | None) -> TrialStatus:
    if outcome.ended_by == "submitted":
        return TrialStatus.resolved if grade and grade.all_passed else TrialStatus.failed
    return TrialStatus(outcome.ended_by)


def execute_trial(spec: TrialSpec, ctx: TrialContext) -> TrialResult:
    started_at, t0 = datetime.now(UTC), time.monotonic()
    session = ctx.gateway.session()
    outcome, grade, agent_s, grade_s = AgentOutcome(ended_by="infra_error"), None, 0.0, 0.0
    sandbox, infra_kind, diff = None, "", None
    keep = not spec.case.protected  # protected tests and outputs are never kept beside the row
    opened = contextlib.ExitStack()  # a sealed case's plaintext, in private memory for this trial only
    trajectory = trajectory_path(ctx.run_dir, spec.trial_id)
    try:  # the plaintext of a sealed case (and its trajectory) is removed at the end, whatever happens
        try:
            case = opened.enter_context(open_case(spec.case, ctx.key_secrets))
            spec = spec.model_copy(update={"case": case})
            if spec.case.protected:  # written in private memory, then sealed into the run folder (sealed_files.py)
                trajectory = opened.enter_context(scratch("trajectory", private_root())) / trajectory.name
            # a command harness's derived image (harnesses/pins.py); the case's own image, workdir and stated
            # limits (a Harbor task's) still win over either
            backend = ctx.variant_backends.get(spec.variant.name, ctx.backend)
            box = case_sandbox_spec(spec.case, spec.run_id, spec.trial_id, ctx.limits)
            if box.image and box.image in ctx.variant_case_images.get(spec.variant.name, {}):
                box = box.model_copy(update={"image": ctx.variant_case_images[spec.variant.name][box.image]})
            sandbox = backend.create(box)
            with session.api_slot():  # the optional Prefect limit on API-calling trials (gateway/slots.py)
                outcome = run_harness(spec, ctx.harness_for(spec.variant), sandbox, session, trajectory)
            agent_s = time.monotonic() - t0
            infra_kind = "endpoint" if outcome.ended_by == "infra_error" else ""
            if outcome.ended_by != "infra_error":
                metrics = ctx.metrics_for(spec.case)
                # before the tests run, which may leave files behind; a held-out diff is scanned, never kept
                diff = (keep_workspace_diff(ctx.run_dir, spec.trial_id, spec.case, sandbox) if keep
                        else take_workspace_diff(spec.case, sandbox))
                # listed before any test runs, so only what the agent changed is seen
                files = workspace_files(sandbox) if metrics.needs_files else None
                # graded even without a submit, so the counts show how far a stopped agent got
                grade = ctx.grader.grade(spec.case, sandbox)
                grade_s = time.monotonic() - t0 - agent_s
                before = host_files(spec.case.workspace_dir, spec.case.content_hash) if files is not None else {}
                scores, messages = metrics.score(TrialFacts(
                    case=spec.case, sandbox=sandbox, grade=grade, ended_by=outcome.ended_by,
                    variant=spec.variant.name, seed=spec.seed, agent_s=agent_s, grade_s=grade_s, steps=outcome.steps,
                    model_calls=session.calls, tokens=session.input_tokens + session.output_tokens,
                    files_before=before, files_after=files))
                grade = grade.model_copy(update={"scores": scores, "messages": messages})
                if keep:
                    write_grade(ctx.run_dir, spec.trial_id, grade)
        except Exception as exc:  # noqa: BLE001 - any crash here is the harness machinery's, not the agent's
            if is_disk_full(exc):
                raise  # not an outcome of this trial: the night stops (run_trial)
            infra_kind = "sandbox_create" if sandbox is None else ("grader" if agent_s else "harness")
            outcome = AgentOutcome(ended_by="infra_error", reason=f"{type(exc).__name__}: {exc}"[:500],
                                   steps=outcome.steps)
        finally:
            if sandbox is not None:
                try:
                    sandbox.destroy()
                except Exception as exc:  # noqa: BLE001 - the grade stands and the row is written; the reaper
                    # removes the leftovers at the next start
                    note = f"sandbox destroy failed: {type(exc).__name__}: {exc}"
                    reason = "; ".join(filter(None, [outcome.reason, note]))[:500]
                    outcome = outcome.model_copy(update={"reason": reason})
        status = decide_status(outcome, grade)
        scan_t0 = time.monotonic()  # before sealing: a protected trajectory is plaintext only until then
        # a session of its own: a judge's calls share the night's quota but are not the agent's calls
        scan_session = ctx.gateway.session()
        copies = ctx.agent_copies.get(spec.variant.name, {}).get(spec.case.id, [])
        flags = scan_trial(ctx.scanners, spec.case, trajectory, diff, grade, outcome.ended_by, status, scan_session,
                           copies)
        scan_s = time.monotonic() - scan_t0
    finally:
        with opened:
            if spec.case.protected:
                seal_trajectory(trajectory, sealed_trajectory_path(ctx.run_dir, spec.trial_id), spec.case,
                                ctx.key_secrets)
    waiting_s = float(getattr(session, "waiting_s", 0.0))  # the endpoint's share of the clock (gateway)
    if grade is None or status == TrialStatus.infra_error:  # no metric speaks for a trial that was not evaluated
        scores, messages = dict.fromkeys(ctx.metrics_for(spec.case).columns()), {}
    else:
        scores, messages = grade.scores, grade.messages
    row = TrialResult(
        trial_id=spec.trial_id, run_id=spec.run_id, case_id=spec.case.id, suite=spec.case.suite,
        domain=spec.case.domain, split=spec.case.split, variant=spec.variant.name, model=spec.variant.model,
        model_version=spec.model_version, seed=spec.seed, status=status,
        infra_kind=infra_kind if status == TrialStatus.infra_error else "",
        score=1.0 if status == TrialStatus.resolved else 0.0, steps=outcome.steps,
        reason=redacted_reason(outcome.reason) if spec.case.protected else outcome.reason,
        **(grade.row_fields() if grade else GradeResult.ungraded_fields(spec.case)),
        scores=scores, score_messages={} if spec.case.protected else messages,  # a message may quote a test
        model_calls=session.calls, input_tokens=session.input_tokens, output_tokens=session.output_tokens,
        rate_limited=session.rate_limited, retry_wait_s=round(session.retry_wait_s, 3),
        quota_wait_s=round(session.quota_wait_s, 3), cost_usd=round(session.cost_usd, 6),
        agent_s=round(agent_s, 3), grade_s=round(grade_s, 3), scan_s=round(scan_s, 4), waiting_s=round(waiting_s, 3),
        working_s=round(max(0.0, agent_s - waiting_s), 3), duration_s=round(time.monotonic() - t0, 3),
        started_at=started_at.isoformat(timespec="milliseconds"),
        finished_at=datetime.now(UTC).isoformat(timespec="milliseconds"), flags=flags,
        **scan_accounting(scan_session),
    )
    return apply_policy(row, ctx.flag_policy)


def _trial_cache_key(_context, parameters: dict) -> str:
    return f"trial-{parameters['spec'].trial_id}"


def _is_infra_failure(_task, _task_run, state) -> bool:
    return isinstance(getattr(state, "data", None), InfraError)


@task(name="run_trial", task_run_name="{spec.case.label}/{spec.variant.name}/seed{spec.seed}",
      cache_key_fn=_trial_cache_key, persist_result=True, result_serializer="json",
      cache_result_in_memory=False, retries=2, retry_delay_seconds=[2, 10], retry_jitter_factor=0.5,
      retry_condition_fn=_is_infra_failure)
def run_trial(spec: TrialSpec, ctx: TrialContext) -> State:
    """The returned state is named for the outcome (``resolved``, ``failed``, ``step_limit``, ``infra_error``...),
    so the Prefect UI shows what happened; a failed infra state is retried like a raised error."""
    if ctx.halt.is_set():
        raise NightHalted(f"{spec.case.label}/{spec.variant.name}/seed{spec.seed}: not run, the night is stopping")
    try:
        result = execute_trial(spec, ctx)
        write_result(ctx.run_dir, result)  # the row exists even if this attempt is the last
    except Exception as exc:
        if not is_disk_full(exc):
            raise
        ctx.halt.set()  # every trial after this one would fail the same way: stop the night instead
        raise DiskFull(f"{spec.case.label}/{spec.variant.name}/seed{spec.seed}: {exc}") from exc
    get_run_logger().info(outcome_line(result, spec.case.label))
    name_task_run(spec, result.status, ctx.publisher)
    if result.status == TrialStatus.infra_error:
        error = InfraError(f"{spec.case.label}/{spec.variant.name}/seed{spec.seed}: {result.reason}")
        return Failed(name="infra_error", message=str(error), data=error)
    return Completed(name=result.status.value, data=result.model_dump(mode="json"))
