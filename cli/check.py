"""``nightshift check EXPERIMENT``: everything ``run`` checks before its first trial, and nothing more — the
file's schema, the suites and case ids it names, that they are validated, every variant's harness and metric
settings, the sandbox backend's name and the model endpoint — then what the night would be. Starts no sandbox,
no Prefect server, no model call beyond the endpoint's ``GET /models``."""

from __future__ import annotations

import argparse
from pathlib import Path

from nightshift.cli.output import console


def add_check_command(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser("check", help="validate an experiment file without running it (every problem at once)")
    check.add_argument("experiment", nargs="?", default="experiments/default.yaml")
    check.set_defaults(fn=check_command)


def check_command(args: argparse.Namespace) -> int:
    from nightshift.experiment.config import ExperimentError
    from nightshift.flows.endpoint_check import check_endpoint
    from nightshift.flows.nightly_eval import check_suites_validated
    from nightshift.flows.protected_night import budget_rules
    from nightshift.flows.trial_context import load_run_cases
    from nightshift.harnesses.pins import install_problems, recorded_warnings
    from nightshift.preflight import check_experiment
    from nightshift.splits.audit import audit_path
    from nightshift.splits.grants import budget_report, unsealed_warning

    checked = check_experiment(Path(args.experiment))
    exp = checked.exp
    cases = load_run_cases(checked)
    check_suites_validated(checked, cases)
    problems = install_problems(exp, checked.harnesses, cases)
    if problems:
        raise ExperimentError(f"{checked.file}: " + "\n  ".join(problems))
    check_endpoint(exp, checked.file)
    trials = len(cases) * len(exp.variants) * len(exp.seeds)
    say = console.print
    say(f"{checked.file}: ok — {len(cases)} cases × {len(exp.variants)} variants × {len(exp.seeds)} seeds = "
        f"{trials} trials", markup=False, highlight=False, soft_wrap=True)
    for name, folder in zip(exp.suites, checked.suite_dirs, strict=True):
        say(f"  suite {name}: {folder}", markup=False, highlight=False, soft_wrap=True)
    for variant in exp.variants:
        resolved = checked.harnesses.get(variant.name)
        identity = resolved.identity if resolved else {}
        kind = identity.get("kind", "?")
        where = identity.get("entrypoint") or identity.get("run") or ""
        if kind == "installed":  # the catalogue's pin says more than its long run line
            where = f"{identity['name']} {identity['version']}, {identity['protocol']}, from {identity['source']}"
        shown = f" ({where})" if where and where != kind else ""
        say(f"  variant {variant.name}: model {variant.model}, harness {kind}{shown}", markup=False, highlight=False,
            soft_wrap=True)
    rules = budget_rules(exp, checked.file, checked.suite_dirs)  # run checks them too, once versions are pinned
    for line in budget_report(cases, rules, [v.name for v in exp.variants], audit_path(exp.output_dir)):
        say(f"  {line}", markup=False, highlight=False, soft_wrap=True)
    warning = unsealed_warning(cases)
    if warning:
        say(f"  warning: {warning}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    for line in recorded_warnings(exp, checked.harnesses, cases):  # an agent's install holding a task's package
        say(f"  warning: {line}", style="yellow", markup=False, highlight=False, soft_wrap=True)
    protocol = "" if exp.model.protocol == "chat" else f" (protocol {exp.model.protocol})"
    say(f"  sandbox {exp.sandbox.backend}; endpoint {exp.model.base_url or 'the embedded simulator'}{protocol}",
        markup=False, highlight=False, soft_wrap=True)
    return 0
