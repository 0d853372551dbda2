"""``nightshift replay RUN``: a past night again — its exact cases (from the suite store), images, seeds, hidden seed
and limits — with the harness it pinned or today's; refused before any trial when a piece is gone. Then how many
of its trials came out as they did (flows/replay.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from nightshift.cli.output import console
from nightshift.cli.server import PORT_HELP


def add_replay_command(sub: argparse._SubParsersAction) -> None:
    replay = sub.add_parser("replay", help="re-run a past night from its manifest and the suite store")
    replay.add_argument("run", help="the run folder (output_dir/<run id>), or a run id under runs/")
    replay.add_argument("--harness", choices=["pinned", "today"], default="pinned",
                        help="pinned: the harness the run pinned (refused if it changed); today: each variant's "
                             "harness as its experiment file says now")
    replay.add_argument("--out", metavar="NEW_RUN", help="the new run's name (default: <experiment>-replay); its "
                        "folder is <name>-<manifest hash> beside the original")
    replay.add_argument("--ephemeral", action="store_true",
                        help="use a temporary in-process Prefect server instead of the local one")
    replay.add_argument("--port", type=int, help=PORT_HELP)
    replay.add_argument("--progress", choices=["auto", "bar", "log"], default="auto",
                        help="as for run: a live bar (auto: on a terminal) or Prefect's log lines")
    replay.set_defaults(fn=replay_command)


def replay_command(args: argparse.Namespace) -> int:
    from nightshift.cli.run import run_experiment
    from nightshift.flows.replay import find_run, prepare_replay, reproduced

    run_dir = find_run(args.run)
    checked, original = prepare_replay(run_dir, args.harness, args.out)  # every refusal before Prefect starts
    say = console.print
    say(f"replaying {original.run_id} ({len(original.cases)} cases, seeds {original.seeds}, hidden seed "
        f"{original.hidden_seed}, harness {args.harness}) from {checked.file}", markup=False, highlight=False,
        soft_wrap=True)
    code, summary = run_experiment(argparse.Namespace(experiment=str(checked.file), ephemeral=args.ephemeral,
                                                      port=args.port, progress=args.progress))
    from nightshift.experiment.manifest import RunManifest

    replay = RunManifest.read(Path(summary["run_dir"]) / "manifest.json")
    for variant, pin in sorted(original.models.items()):
        now = replay.models[variant].version
        if now != pin.version:
            say(f"variant {variant}: the endpoint now serves {now}, the run had {pin.version}", style="yellow",
                markup=False, highlight=False, soft_wrap=True)
    same, differ = reproduced(run_dir / "results.parquet", Path(summary["parquet"]))
    say(f"\nreplay of {original.run_id}: {same} of {same + len(differ)} trials have the original's status and score",
        markup=False, highlight=False, soft_wrap=True)
    for line in differ[:20]:
        say(f"  differs: {line}", markup=False, highlight=False, soft_wrap=True)
    return code
