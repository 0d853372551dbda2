"""The ``nightshift validate-suite`` command (argument handling only; ``import-suite`` is cli/import_suite.py)."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from rich.console import Console


def add_commands(sub: argparse._SubParsersAction) -> None:
    val = sub.add_parser("validate-suite", help="oracle and alternative solutions must resolve every case, the "
                         "untouched workspace must not")
    val.add_argument("suite", help="'builtin', 'humaneval', or a suite folder")
    val.add_argument("--repeats", type=int, default=3, help="oracle runs per case, to find flaky tests (default 3)")
    val.add_argument("--jobs", type=int, default=None, help="cases checked at once (default: 3 x cores)")
    val.add_argument("--cases", help="comma-separated case ids (default: every case)")
    val.add_argument("--sample", type=int, default=None, help="only the first N cases")
    val.add_argument("--no-record", action="store_true", help="do not write the suite's validation.json")
    val.add_argument("--experiment", metavar="FILE", help="use this experiment file's sandbox.backend and "
                                                          "sandbox.image (the ones its runs will use)")
    val.add_argument("--backend", default=None, help="sandbox backend (nightshift plugins lists them; docker is "
                                                     "needed for cases with sidecars); wins over --experiment "
                                                     "(default: bubblewrap)")
    val.add_argument("--image", default=None, help="the backend's image (default: the experiment's; else host for "
                                                   "bubblewrap, the locally built base image for docker)")
    val.add_argument("-v", "--verbose", action="store_true", help="a table row for every case, not only problems")
    val.set_defaults(fn=validate_suite_command)


def chosen_backend(args: argparse.Namespace) -> tuple[str, str]:
    """(backend name, image) from the flags, else the experiment file, else bubblewrap on the host."""
    name, image = "bubblewrap", "host"
    if args.experiment:
        from nightshift.experiment.config import load_experiment

        sandbox = load_experiment(Path(args.experiment)).sandbox
        name, image = sandbox.backend, sandbox.image
    if args.backend and args.backend != name:  # another backend than the experiment's: its image does not apply
        name, image = args.backend, _default_image(args.backend)
    return name, args.image or image


def validate_suite_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.suites import resolve_suite

    folder = resolve_suite(args.suite)  # errors are the CLI's to print (nightshift.cli.main): one line, exit 2
    with contextlib.ExitStack() as opened:
        return _validate(folder, args, console, opened)


def _validate(folder: Path, args: argparse.Namespace, console: Console, opened: contextlib.ExitStack) -> int:
    from nightshift.graders.validate import print_validation, validate_cases
    from nightshift.resources import is_installed
    from nightshift.sandbox import backend_for
    from nightshift.suites import load_cases
    from nightshift.suites.loader import open_case
    from nightshift.suites.validation import write_record

    secrets = _key_secrets(args)
    cases = load_cases(folder, args.cases.split(",") if args.cases else None, key_secrets=secrets)  # a sealed
    # case without its key is refused, named; with it, graded on its plaintext, opened in private memory only
    cases = [opened.enter_context(open_case(case, secrets)) for case in cases]
    name, image = chosen_backend(args)
    cases = cases[: args.sample] if args.sample else cases
    if not cases:
        console.print(f"{folder}: no cases to validate; a suite with no cases cannot be used (check the import's "
                      f"refused tasks in {folder / 'suite.toml'})", style="red", markup=False, highlight=False)
        return 1
    _print_base_images(folder, console)
    backend = backend_for(name, image)  # an unknown backend (exit 2), one this host cannot run (exit 4)
    console.print(f"validating {len(cases)} cases of {folder} on {name} ({image}) (oracle x{args.repeats}, then "
                  "the untouched workspace)", markup=False, highlight=False)
    result = validate_cases(cases, backend, repeats=args.repeats, jobs=args.jobs)
    print_validation(result, cases, console, verbose=args.verbose)
    if is_installed(folder):  # the shipped record stands; state never goes into site-packages
        console.print(f"validation record: not written ({folder} is part of the installed package)")
    elif not args.no_record:
        console.print(f"validation record: {write_record(folder, result.record)}")
    return 0 if result.ok else 1


def _key_secrets(args: argparse.Namespace) -> dict[str, str]:
    """The Prefect Secret blocks the experiment names for split keys (beyond NIGHTSHIFT_SPLIT_KEY_<SPLIT>)."""
    if not args.experiment:
        return {}
    from nightshift.experiment.config import load_experiment

    return load_experiment(Path(args.experiment)).key_secrets()


def _print_base_images(folder: Path, console: Console) -> None:
    """The suite's FROM -> local image map (pinned ids), so a reader sees what the cases were built on."""
    import tomllib

    mapped = tomllib.loads((folder / "suite.toml").read_text()).get("harbor", {}).get("base_images", {})
    for name, pin in sorted(mapped.items()):
        console.print(f"base image {name} -> {pin.get('local')} ({pin.get('id') or 'unused'})")


def _default_image(backend: str) -> str:
    if backend != "docker":
        return "host"
    from nightshift.sandbox.images import latest_build

    build = latest_build()
    return (build.image_id if build and build.image_id else "") or "nightshift/sandbox:bookworm"
