"""The ``nightshift validate-suite`` and ``nightshift import-suite`` commands (argument handling only)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape


def add_commands(sub: argparse._SubParsersAction) -> None:
    val = sub.add_parser("validate-suite", help="oracle and alternative solutions must resolve every case, the "
                         "untouched workspace must not")
    val.add_argument("suite", help="'builtin', 'humaneval', or a suite folder")
    val.add_argument("--repeats", type=int, default=3, help="oracle runs per case, to find flaky tests (default 3)")
    val.add_argument("--jobs", type=int, default=None, help="cases checked at once (default: 3 x cores)")
    val.add_argument("--cases", help="comma-separated case ids (default: every case)")
    val.add_argument("--sample", type=int, default=None, help="only the first N cases")
    val.add_argument("--no-record", action="store_true", help="do not write the suite's validation.json")
    val.add_argument("--backend", default="bubblewrap", help="sandbox backend: bubblewrap (default) or docker "
                                                             "(needed for cases with sidecars)")
    val.add_argument("--image", default=None, help="the backend's image: bubblewrap root filesystem (default: host); "
                                                   "docker image (default: the locally built base image)")
    val.add_argument("-v", "--verbose", action="store_true", help="a table row for every case, not only problems")
    val.set_defaults(fn=validate_suite_command)
    imp = sub.add_parser("import-suite", help="write HumanEval, Harbor/terminal-bench or SWE-bench as a suite folder")
    imp.add_argument("format", choices=["humaneval", "harbor", "swebench"])
    imp.add_argument("source", nargs="?", help="harbor: a task folder or a folder of them; swebench: a JSONL file")
    imp.add_argument("out", help="suite folder to write")
    imp.add_argument("--name", default=None, help="suite name (default: the format)")
    imp.add_argument("--map-image", action="append", default=[], metavar="FROM=LOCAL",
                     help="harbor: build a task whose Dockerfile says FROM <FROM> on the local image LOCAL instead "
                          "(for machines without a registry); repeat for several")
    imp.add_argument("--max-steps", type=int, default=40, help="harbor: model turns per case when a task states "
                                                                "none (default 40)")
    imp.set_defaults(fn=import_suite_command)


def validate_suite_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.graders.validate import print_validation, validate_cases
    from nightshift.resources import is_installed
    from nightshift.sandbox import backend_for
    from nightshift.suites import SuiteError, load_cases, resolve_suite
    from nightshift.suites.validation import write_record

    try:
        folder = resolve_suite(args.suite)
        cases = load_cases(folder, args.cases.split(",") if args.cases else None)
    except SuiteError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    cases = cases[: args.sample] if args.sample else cases
    if not cases:
        console.print(f"[red]{folder}: no cases to validate; a suite with no cases cannot be used "
                      f"(check the import's refused tasks in {folder / 'suite.toml'})[/red]")
        return 1
    _print_base_images(folder, console)
    backend = backend_for(args.backend, args.image or _default_image(args.backend))
    console.print(f"validating {len(cases)} cases of {folder} (oracle x{args.repeats}, then the untouched workspace)")
    result = validate_cases(cases, backend, repeats=args.repeats, jobs=args.jobs)
    print_validation(result, cases, console, verbose=args.verbose)
    if is_installed(folder):  # the shipped record stands; state never goes into site-packages
        console.print(f"validation record: not written ({folder} is part of the installed package)")
    elif not args.no_record:
        console.print(f"validation record: {write_record(folder, result.record)}")
    return 0 if result.ok else 1


def import_suite_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.suites import SuiteError

    out = Path(args.out)
    try:
        if args.format == "humaneval":
            from nightshift.suites.humaneval import import_humaneval

            import_humaneval(out)
        elif args.source is None:
            what = "a task folder" if args.format == "harbor" else "a JSONL file"
            raise SuiteError(f"import-suite {args.format}: give the source ({what}) before the output folder")
        elif args.format == "harbor":
            from nightshift.suites.harbor import import_harbor_tasks

            result = import_harbor_tasks(Path(args.source), out, name=args.name or "harbor",
                                         base_images=_image_map(args.map_image), max_steps=args.max_steps)
            for task, reason in sorted(result.refused.items()):
                console.print(f"[yellow]refused {task}:[/yellow] {escape(reason)}")
            console.print(f"imported {len(result.imported)} tasks, refused {len(result.refused)} "
                          f"(listed in {out / 'suite.toml'})")
            if not result.imported:
                return 2
        else:
            from nightshift.suites.swebench import import_swebench

            import_swebench(Path(args.source), out, name=args.name or "swebench")
    except SuiteError as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    console.print(f"wrote suite {out}; next: nightshift validate-suite {out}")
    return 0


def _image_map(pairs: list[str]) -> dict[str, str]:
    from nightshift.suites import SuiteError

    found = {}
    for pair in pairs:
        name, eq, local = pair.partition("=")
        if not eq or not name or not local:
            raise SuiteError(f"--map-image {pair!r}: write it as FROM=LOCAL, "
                             f"e.g. ubuntu:24.04=nightshift/sandbox:bookworm")
        found[name] = local
    return found


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
