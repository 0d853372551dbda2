"""`nightshift plan`: how much concurrency a night needs, what binds it, and when it will end.

Trials come from an experiment file (cases × variants × seeds) or ``--trials N``; their durations,
tokens and requests from last night's Parquet (``--history``, per case) or flat figures
(``--minutes-per-trial``, ``--tokens-per-trial``, ``--requests-per-trial``). Flags override the
experiment file's concurrency, quota (× share) and timing slots (GPU cards, else reserved CPU cores).
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from nightshift.planner.history import History, latest_run, learn_history
from nightshift.planner.model import Capacity, TrialLoad, concurrency_needed, forecast
from nightshift.planner.schedule import order_trials

_SPAN = re.compile(r"^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?(?:(\d+(?:\.\d+)?)s)?$")


def parse_deadline(text: str, start: datetime) -> float:
    """Seconds from ``start`` to a deadline given as a span ('8h', '7h30m', '90m') or a UTC clock time ('07:00')."""
    text = text.strip()
    if re.fullmatch(r"\d{1,2}:\d{2}", text):
        hour, minute = (int(x) for x in text.split(":"))
        end = start.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if end <= start:
            end += timedelta(days=1)
        return (end - start).total_seconds()
    match = _SPAN.match(text)
    if not text or not match or not any(match.groups()):
        raise ValueError(f"--deadline {text!r}: give a span like 8h, 7h30m, 90m, or a UTC time like 07:00")
    h, m, s = (float(x or 0) for x in match.groups())
    return h * 3600 + m * 60 + s


def span(seconds: float) -> str:
    if math.isinf(seconds):
        return "never"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


def _experiment_trials(path: Path, history: History) -> tuple[list[TrialLoad], dict]:
    """Loads of an experiment file's trials (ordered as the flow orders them) and its capacity settings."""
    from nightshift.preflight import check_experiment
    from nightshift.suites import load_cases

    checked = check_experiment(path)
    exp = checked.exp
    cases = [c for d in checked.suite_dirs for c in load_cases(d)]
    if exp.cases is not None:
        cases = [c for c in cases if c.id in set(exp.cases)]
    triples = [(seed, case.id, v.name) for seed in exp.seeds for case in cases for v in exp.variants]
    ordered = order_trials(triples, lambda t: history.predict(t[1], t[2]).duration_s, block=lambda t: t[:2])
    settings = {"concurrency": exp.concurrency, "share": exp.model.share,
                "rpm": exp.model.requests_per_minute, "tpm": exp.model.tokens_per_minute,
                "gpu_cards": _gpu_cards(exp), "history_dir": (exp.output_dir, exp.name)}
    return [history.predict(case, variant) for _, case, variant in ordered], settings


def _gpu_cards(exp: object) -> int:
    """Slots of the experiment's timing pool: its cards, else its reserved CPU cores."""
    from nightshift.gpu import timing_slots

    settings = getattr(exp, "gpu", None)
    return len(timing_slots(settings)) if settings is not None else 0


def _history_trials(history: History, count: int) -> list[TrialLoad]:
    """``count`` trials in the mix of cases and variants the history saw, longest first."""
    keys = sorted(history.by_case_variant)
    picked = list(itertools.islice(itertools.cycle(keys), count))
    ordered = order_trials(picked, lambda k: history.predict(*k).duration_s, block=lambda k: k[0])
    return [history.predict(*k) for k in ordered]


def _override(loads: list[TrialLoad], args: argparse.Namespace) -> list[TrialLoad]:
    return [TrialLoad(duration_s=t.duration_s,
                      tokens=t.tokens if args.tokens_per_trial is None else args.tokens_per_trial,
                      requests=t.requests if args.requests_per_trial is None else args.requests_per_trial,
                      gpu_s=t.gpu_s if args.gpu_minutes_per_trial is None else 60 * args.gpu_minutes_per_trial)
            for t in loads]


def plan(args: argparse.Namespace) -> int:
    """Print the plan; 2 for unusable input, 1 when the deadline cannot be met, else 0."""
    start = datetime.now(UTC)
    try:
        deadline_s = parse_deadline(args.deadline, start)
        default = TrialLoad(duration_s=60 * (args.minutes_per_trial or 10.0))
        sources = [Path(p) for p in args.history or []]
        history = learn_history(sources, default if args.minutes_per_trial else None) if sources else History(
            default=default)
        settings: dict = {}
        if args.experiment:
            loads, settings = _experiment_trials(Path(args.experiment), history)
            if not sources and not args.minutes_per_trial and (last := latest_run(*settings["history_dir"])):
                history = learn_history([last])
                loads, settings = _experiment_trials(Path(args.experiment), history)
        elif history:
            loads = _history_trials(history, args.trials or history.rows)
        else:
            loads = [default] * (args.trials or 0)
    except (ValueError, OSError) as exc:  # ExperimentError, SuiteError and HistoryError are ValueErrors
        print(f"nightshift plan: {exc}")
        return 2
    if args.trials and args.experiment:
        loads = (loads * math.ceil(args.trials / max(1, len(loads))))[:args.trials]
    if not loads:
        print("nightshift plan: no trials; give --trials N, --experiment FILE or --history PARQUET")
        return 2
    loads = _override(loads, args)
    share = settings.get("share", 1.0)
    rpm = args.rpm or settings.get("rpm")
    tpm = args.tpm or settings.get("tpm")
    capacity = Capacity(concurrency=args.concurrency or settings.get("concurrency") or 1,
                        requests_per_minute=rpm * share if rpm else None,
                        tokens_per_minute=tpm * share if tpm else None,
                        gpu_cards=args.gpu_cards if args.gpu_cards is not None else settings.get("gpu_cards", 0))
    if not (args.concurrency or settings.get("concurrency")):
        print("nightshift plan: no --concurrency and no experiment file: evaluating concurrency 1 "
              "(give --concurrency N for the slots you will run)")
    for line in report(loads, capacity, deadline_s, start, history):
        print(line)
    return 0 if concurrency_needed(loads, capacity, deadline_s) is not None else 1


def report(loads: list[TrialLoad], capacity: Capacity, deadline_s: float, start: datetime,
           history: History) -> list[str]:
    """The lines `nightshift plan` prints."""
    n = len(loads)
    mean = sum(t.duration_s for t in loads) / n
    where = (f"learned from {', '.join(history.sources)} ({len(history.by_case)} cases, {history.rows} rows)"
             if history else "flat figure, no history")
    quota = ", ".join(f"{v:,.0f} {k}" for k, v in (("requests/min", capacity.requests_per_minute),
                                                      ("tokens/min", capacity.tokens_per_minute)) if v) or "none"
    lines = [f"{n:,} trials, deadline in {span(deadline_s)} "
             f"({start + timedelta(seconds=deadline_s):%Y-%m-%d %H:%M} UTC if started now)",
             f"  per trial: {span(mean)} mean, longest {span(max(t.duration_s for t in loads))} "
             f"({where}); {sum(t.tokens for t in loads) / n:,.0f} tokens, {sum(t.requests for t in loads) / n:.1f} "
             f"requests",
             f"  quota: {quota}; timing slots: {capacity.gpu_cards}",
             f"  to finish by the deadline the night needs {sum(t.tokens for t in loads) / (deadline_s / 60):,.0f} "
             f"tokens/min and {sum(t.requests for t in loads) / (deadline_s / 60):,.1f} requests/min on average", ""]
    needed = concurrency_needed(loads, capacity, deadline_s)
    if needed is None:
        at_most = forecast(loads, capacity.with_concurrency(n))
        lines.append(f"concurrency needed: none meets the deadline — {at_most.binding} alone needs "
                     f"{span(at_most.lower_bound_s)} (with every trial in flight the night takes "
                     f"{span(at_most.makespan_s)})")
    else:
        best = forecast(loads, capacity.with_concurrency(needed))
        lines.append(f"concurrency needed: {needed} (predicted finish in {span(best.makespan_s)}, "
                     f"{start + timedelta(seconds=best.makespan_s):%Y-%m-%d %H:%M} UTC)")
    night = forecast(loads, capacity)
    verdict = "meets" if night.makespan_s <= deadline_s else "misses"
    lines += [f"at concurrency {capacity.concurrency}: predicted finish in {span(night.makespan_s)} "
              f"({start + timedelta(seconds=night.makespan_s):%Y-%m-%d %H:%M} UTC, {verdict} the deadline); "
              f"binding constraint: {night.binding}", f"  lower bounds at concurrency {capacity.concurrency}:"]
    for name, seconds in sorted(night.bounds.items(), key=lambda kv: -kv[1]):
        lines.append(f"    {name:<14} {span(seconds):>8}" + ("   <- binds" if name == night.binding else ""))
    for name, fraction in night.also_binding().items():
        lines.append(f"  {name} also slows the trials for {fraction:.0%} of the night (bursts of demand)")
    return lines


def add_plan_command(sub: argparse._SubParsersAction) -> None:
    """Register `nightshift plan` on the CLI's subparsers."""
    p = sub.add_parser("plan", help="concurrency needed, binding constraint and predicted finish of a night")
    p.add_argument("--experiment", metavar="FILE", help="count trials (cases × variants × seeds) and read "
                   "concurrency, quota and timing slots from this experiment file; its newest earlier run is the "
                   "history unless --history or --minutes-per-trial is given")
    p.add_argument("--trials", type=int, help="number of trials (default: the experiment's, or the history's rows)")
    p.add_argument("--history", nargs="+", metavar="PARQUET", help="last night's results.parquet (or run "
                   "folder): durations, tokens and requests learned per case")
    p.add_argument("--minutes-per-trial", type=float, help="flat duration of every trial (default 10, or history)")
    p.add_argument("--deadline", default="8h", help="a span (8h, 7h30m) or a UTC time (07:00); default 8h")
    p.add_argument("--tokens-per-trial", type=float, help="tokens each trial charges (default: history, else 0)")
    p.add_argument("--requests-per-trial", type=float, help="model requests per trial (default: history, else 0)")
    p.add_argument("--rpm", type=float, help="requests/min quota of the key (default: the experiment's)")
    p.add_argument("--tpm", type=float, help="tokens/min quota of the key (default: the experiment's)")
    p.add_argument("--gpu-cards", type=int, help="cards for timing steps (default: the experiment's gpu.cards)")
    p.add_argument("--gpu-minutes-per-trial", type=float, help="minutes each trial holds a card (timing steps)")
    p.add_argument("--concurrency", type=int, help="trials in flight to evaluate (default: the experiment's)")
    p.set_defaults(fn=plan)
