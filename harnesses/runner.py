"""One entry for the life of a trial: run the variant's harness, whatever its kind, under the trial's limits."""

from __future__ import annotations

from pathlib import Path

from nightshift.contracts import Sandbox
from nightshift.experiment.trials import TrialSpec
from nightshift.gateway import GatewaySession
from nightshift.harnesses.command_harness import CommandHarness
from nightshift.harnesses.limits import TrialLimits
from nightshift.harnesses.python_runner import run_python_harness
from nightshift.harnesses.resolve import ResolvedHarness
from nightshift.models import AgentOutcome
from nightshift.trajectory import append_event, first_event, start_trajectory


def run_harness(spec: TrialSpec, resolved: ResolvedHarness, sandbox: Sandbox, session: GatewaySession,
                trajectory: Path) -> AgentOutcome:
    """Run the trial's harness (``resolved`` once for the night); the outcome's status is decided by nightshift."""
    limits = TrialLimits.of(spec.variant, spec.case)
    header = {"case": spec.case.id, "instruction": spec.case.instruction, "harness": spec.variant.harness.kind,
              "variant": spec.variant.name, "model": spec.variant.model, "seed": spec.seed}
    start_trajectory(trajectory, **header)  # the viewer shows the instruction whatever the harness writes
    try:
        if resolved.spec.kind == "command":
            return CommandHarness(resolved, spec.variant.model).run(spec.case, sandbox, session, spec.seed,
                                                                    trajectory, limits)
        return run_python_harness(resolved, spec.variant.model, spec.case, sandbox, session, spec.seed,
                                  trajectory, limits)
    finally:
        if (first_event(trajectory) or {}).get("event") != "trial":  # a harness that rewrote the file
            append_event(trajectory, "trial", **header)
