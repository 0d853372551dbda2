"""One entry for the life of a trial: run the variant's harness, whatever its kind, under the trial's limits."""

from __future__ import annotations

from pathlib import Path

from nightshift.errors import HarnessError
from nightshift.gateway import GatewaySession
from nightshift.harnesses.limits import TrialLimits
from nightshift.harnesses.python_runner import append_event, run_python_harness
from nightshift.harnesses.resolve import resolve_harness
from nightshift.models import AgentOutcome


def run_harness(spec, sandbox, session: GatewaySession, trajectory: Path) -> AgentOutcome:
    """`spec` is the trial (experiment.trials.TrialSpec); the outcome's status is decided by nightshift."""
    try:
        resolved = resolve_harness(spec.variant.harness)
    except HarnessError as exc:  # validated at load time: this is the harness's code changing under the run
        append_event(trajectory, "agent_error", error=str(exc))
        return AgentOutcome(ended_by="agent_error", reason=f"harness does not resolve: {exc}"[:500])
    limits = TrialLimits.of(spec.variant, spec.case)
    if resolved.spec.kind == "command":
        from nightshift.harnesses.command_harness import CommandHarness

        return CommandHarness(resolved, spec.variant.model).run(spec.case, sandbox, session, spec.seed,
                                                                trajectory, limits)
    return run_python_harness(resolved, spec.variant.model, spec.case, sandbox, session, spec.seed, trajectory,
                              limits)
