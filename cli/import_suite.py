"""The ``nightshift import-suite`` command (argument handling only; suites/importers.py does the work)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console


def add_import_command(sub: argparse._SubParsersAction) -> None:
    from nightshift.plugins import IMPORTERS

    imp = sub.add_parser("import-suite", help="write a suite format (HumanEval, Harbor/terminal-bench, SWE-bench, or "
                                              "an installed importer) as a suite folder")
    imp.add_argument("format", help=f"an importer: {', '.join(IMPORTERS.names())} (nightshift plugins lists them), "
                                    "or module:attr")
    imp.add_argument("source", nargs="*", help="harbor: a task folder or a folder of them; swebench: a JSONL file; "
                                               "pypi: NAME==VERSION or NAME==OLD..NEW specs (several), or a "
                                               "file listing them")
    imp.add_argument("out", help="suite folder to write")
    imp.add_argument("--name", default=None, help="suite name (default: the format)")
    imp.add_argument("--map-image", action="append", default=[], metavar="FROM=LOCAL",
                     help="harbor: build a task whose Dockerfile says FROM <FROM> on the local image LOCAL instead "
                          "(for machines without a registry); repeat for several")
    imp.add_argument("--max-steps", type=int, default=None, help="harbor: model turns per case when a task states "
                                                                  "none (default 40)")
    imp.add_argument("--runs", type=int, default=None, help="pypi: runs of the upstream tests; a test must pass "
                                                             "every one to be PASS_TO_PASS (default 3)")
    imp.add_argument("--tasks-per-package", type=int, default=None, help="pypi: injected-bug tasks kept per "
                                                                          "package at most (default 5)")
    imp.add_argument("--release-pairs", action="store_true", help="pypi: each NAME==NEW becomes a release-pair "
                     "task against the release before NEW (NAME==OLD..NEW names both without this flag)")
    imp.set_defaults(fn=import_suite_command)
    build = sub.add_parser("build-suite", help="build a shipped suite here (suites/pypi): download its pinned sdists "
                                              "and test wheels, build one image per package, write its case folders")
    build.add_argument("suite", nargs="?", default="pypi", help="'pypi' (default) or a shipped suite's folder")
    build.set_defaults(fn=build_suite_command)


def import_suite_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.errors import SuiteError
    from nightshift.suites.catalog import run_importer

    out = Path(args.out)
    try:
        first, *extra = args.source or [None]
        if extra and args.format != "pypi":
            raise SuiteError(f"import-suite {args.format}: give one source, not {len(args.source)} "
                             f"({', '.join(args.source)})")
        options = {"base_images": _image_map(args.map_image), "max_steps": args.max_steps, "extra_sources": extra,
                   "runs": args.runs, "tasks_per_package": args.tasks_per_package,
                   "release_pairs": args.release_pairs}
        result = run_importer(args.format, Path(first) if first else None, out, args.name, options)
    except SuiteError as exc:
        console.print(str(exc), style="red", markup=False, highlight=False, soft_wrap=True)
        return 2
    refused = getattr(result, "refused", None)
    if isinstance(refused, dict):  # an importer that imports what it can and lists the rest (harbor)
        for item, reason in sorted(refused.items()):
            console.print(f"refused {item}: {reason}", style="yellow", markup=False, highlight=False)
        for name, image in sorted(getattr(result, "standins", {}).items()):
            console.print(f"built on a stand-in: {name} -> {image} (what differs: case.toml [source.standins])",
                          style="yellow", markup=False, highlight=False)
        imported = getattr(result, "imported", [])
        console.print(f"imported {len(imported)} tasks, refused {len(refused)} (listed in {out / 'suite.toml'})",
                      markup=False, highlight=False)
        if not imported:
            return 2
    console.print(f"wrote suite {out}; next: nightshift validate-suite {out}")
    return 0


def _image_map(pairs: list[str]) -> dict[str, str]:
    from nightshift.errors import SuiteError

    found = {}
    for pair in pairs:
        name, eq, local = pair.partition("=")
        if not eq or not name or not local:
            raise SuiteError(f"--map-image {pair!r}: write it as FROM=LOCAL, "
                             f"e.g. ubuntu:24.04=nightshift/sandbox:bookworm")
        found[name] = local
    return found


def build_suite_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.errors import SuiteError
    from nightshift.suites.pypi_tasks.shipped import SHIPPED, build, is_recipe

    recipe = SHIPPED if args.suite == "pypi" else Path(args.suite)
    if not is_recipe(recipe):
        console.print(f"{recipe}: not a shipped suite (its suite.toml has no [shipped] table); build-suite builds "
                      f"'pypi' or a folder like suites/pypi", style="red", markup=False, highlight=False)
        return 2
    try:
        built = build(recipe, log=lambda line: console.print(line, markup=False, highlight=False))
    except SuiteError as exc:
        console.print(str(exc), style="red", markup=False, highlight=False, soft_wrap=True)
        return 2
    console.print(f"built {built.cases} cases of {len(built.images)} packages into {built.out}; next: nightshift "
                  f"validate-suite {args.suite}", markup=False, highlight=False)
    return 0
