"""The planner as a night uses it: history from the experiment's settings, the order, each trial's load,
the capacity, and the forecast the flow logs before the first trial starts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from nightshift.experiment.config import Experiment
from nightshift.experiment.trials import TrialSpec
from nightshift.gpu import timing_slots
from nightshift.planner.history import History, latest_run, learn_history
from nightshift.planner.model import Capacity, NightForecast, TrialLoad, forecast
from nightshift.planner.schedule import order_trials


@dataclass
class NightPlan:
    """Trials in the order they will run, what each is predicted to take, and what that adds up to."""

    specs: list[TrialSpec]
    loads: list[TrialLoad]
    capacity: Capacity
    history: History
    forecast: NightForecast
    order: str = "listed"

    def summary(self) -> str:
        f = self.forecast
        head = f"planner: {f.trials} trials at concurrency {self.capacity.concurrency}"
        if not self.history:
            return f"{head}; no history: listed order, and the ETA learns from the first trials"
        source = ", ".join(Path(s).parent.name for s in self.history.sources)
        return (f"{head}, {self.order} order, history {source}: predicted {f.makespan_s / 60:.1f} min "
                f"(lower bound {f.lower_bound_s / 60:.1f} min, binding: {f.binding})")


def history_for(exp: Experiment, experiment_file: Path, run_id: str | None = None) -> History:
    """The history an experiment asks for: 'auto' (its newest earlier run), 'none', or listed files."""
    setting = exp.schedule.history
    if setting == "none":
        return History()
    if setting == "auto":
        last = latest_run(exp.output_dir, exp.name, exclude=run_id)
        return learn_history([last]) if last else History()
    return learn_history([(Path(experiment_file).parent / p).resolve() for p in setting])


def capacity_of(exp: Experiment) -> Capacity:
    """What the experiment file gives the night: concurrency, its share of the quota, timing slots."""
    share = exp.model.share
    rpm, tpm = exp.model.requests_per_minute, exp.model.tokens_per_minute

    return Capacity(concurrency=exp.concurrency, requests_per_minute=rpm * share if rpm else None,
                    tokens_per_minute=tpm * share if tpm else None,
                    gpu_cards=len(timing_slots(exp.gpu)))  # the timing pool: cards, else reserved CPU cores


def plan_night(specs: Sequence[TrialSpec], exp: Experiment, experiment_file: Path, run_id: str | None = None
               ) -> NightPlan:
    """Order TrialSpecs as the experiment says (longest-first with history) and predict each one."""
    history = history_for(exp, experiment_file, run_id)

    def load(spec: TrialSpec) -> TrialLoad:
        return history.predict(spec.case.id, spec.variant.name)

    order = "longest-first" if exp.schedule.order == "longest-first" and history else "listed"
    ordered = order_trials(specs, lambda s: load(s).duration_s) if order == "longest-first" else list(specs)
    loads = [load(s) for s in ordered]
    capacity = capacity_of(exp)
    return NightPlan(specs=ordered, loads=loads, capacity=capacity, history=history,
                     forecast=forecast(loads, capacity), order=order)
