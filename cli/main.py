"""The `nightshift` command: run a night, compare runs, write reports, manage the local Prefect server.

Each subcommand lives in its own module of this folder and imports what it runs only when it runs. An error
nightshift raises on purpose (nightshift.errors) ends the command with its message and its family's exit code
(2: fix the input; 3: the run's files; 4: the infrastructure), never a traceback; anything else is a bug: one
line here, the traceback in .nightshift/cli-error.log. `run`, `compare` and `report` end 5 (BROKEN_ARM_EXIT_CODE)
when they did everything but an arm is broken: its trials mostly ended agent_error or infra_error.
"""

from __future__ import annotations

import argparse
import sys
import traceback

from nightshift.cli.compare import add_compare_commands
from nightshift.cli.output import console, say
from nightshift.cli.run import add_run_command
from nightshift.cli.server import add_server_commands
from nightshift.cli.starter import add_init_command
from nightshift.errors import NightshiftError
from nightshift.resources import state_dir

EXIT_STATUSES = """exit status: 0 done; 1 it ran and found a failure (a case that does not validate, a plugin that
does not load, an internal error); 2 fix the input (the message names the file, the field and the fix); 3 the
run's files (locked, disk full, a corrupt row); 4 the infrastructure (a sandbox backend, the model endpoint, the
Prefect server); 5 everything was written but an arm is broken (most of its trials ended agent_error or
infra_error: run, compare and report say which and why)."""


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand and flag (the docs' commands are checked against it: tests/test_docs_commands.py)."""
    parser = argparse.ArgumentParser(prog="nightshift", description=__doc__.split("\n\n")[0], epilog=EXIT_STATUSES,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    add_init_command(sub)
    add_run_command(sub)
    add_compare_commands(sub)
    add_server_commands(sub)
    from nightshift.cli.import_suite import add_import_command
    from nightshift.cli.plugins import add_plugins_command
    from nightshift.cli.validate_suite import add_commands

    add_commands(sub)  # validate-suite
    add_import_command(sub)  # import-suite, over the IMPORTERS registry
    add_plugins_command(sub)  # plugins
    from nightshift.cli.check import add_check_command

    add_check_command(sub)  # check
    from nightshift.cli.plan import add_plan_command

    add_plan_command(sub)  # plan
    from nightshift.cli.view import add_view_command

    add_view_command(sub)  # view
    from nightshift.cli.splits import add_split_commands

    add_split_commands(sub)  # seal, audit
    from nightshift.cli.scan import add_scan_command

    add_scan_command(sub)  # scan
    from nightshift.cli.replay import add_replay_command

    add_replay_command(sub)  # replay
    from nightshift.cli.images import add_images_command

    add_images_command(sub)  # images
    from nightshift.cli.export import add_export_command

    add_export_command(sub)  # export
    from nightshift.sandbox import base_image, standin_build

    image = sub.add_parser("build-image", help="build the pinned Debian sandbox base image (root): a rootfs for "
                                                "bubblewrap and a docker image; with --as, a stand-in for a "
                                                "registry base on top of it; skipped when nothing changed")
    base_image.add_arguments(image)
    standin_build.add_arguments(image)
    image.set_defaults(fn=standin_build.run)
    from nightshift.cli.docker_pool import add_docker_pool_commands

    add_docker_pool_commands(sub)  # docker-pool, docker-worker
    return parser





def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command in ("validate-suite", "import-suite", "build-suite", "view", "plugins", "seal", "audit",
                            "images"):
            return args.fn(args, console)
        return args.fn(args)
    except NightshiftError as exc:  # input problems name their file and fix; others name the condition too
        say(str(exc) if exc.exit_code == 2 else f"{type(exc).__name__}: {exc}", style="red")
        return exc.exit_code
    except KeyboardInterrupt:
        say("interrupted", style="red")
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug: one line for the person, the traceback for the report
        log = state_dir() / "cli-error.log"
        try:
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(traceback.format_exc())
            where = f"the traceback is in {log}"
        except OSError:
            where = "rerun with NIGHTSHIFT_TRACEBACK=1 for the traceback"
        say(f"internal error (a bug in nightshift, please report it): {type(exc).__name__}: {exc}; {where}",
            style="red")
        if __import__("os").environ.get("NIGHTSHIFT_TRACEBACK"):
            raise
        return 1


if __name__ == "__main__":
    sys.exit(main())
