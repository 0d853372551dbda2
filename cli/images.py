"""``nightshift images``: the harness images nightshift derived on this host and the kept runs that pin each;
``--prune`` removes those no run in the given output folders references (harnesses/image_prune.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table


def add_images_command(sub: argparse._SubParsersAction) -> None:
    cmd = sub.add_parser("images", help="list nightshift's derived harness images and the runs that keep them; "
                                        "--prune removes the ones no kept run references")
    cmd.add_argument("output_dirs", nargs="*", type=Path, default=[Path("runs")], metavar="OUTPUT_DIR",
                     help="run stores whose runs keep their images (default: runs)")
    cmd.add_argument("--prune", action="store_true", help="remove every derived image no run there references")
    cmd.set_defaults(fn=images_command)


def images_command(args: argparse.Namespace, console: Console) -> int:
    from nightshift.harnesses.image_prune import remove, survey
    from nightshift.sandbox.docker_engine import docker_engine

    missing = [str(d) for d in args.output_dirs if not d.is_dir()]
    if missing:  # pruning against a mistyped store would remove every image its runs keep
        console.print(f"no such run store: {', '.join(missing)}; pass the output_dir of your experiments",
                      style="red", markup=False, highlight=False)
        return 2
    try:
        client = docker_engine("listing derived docker images", "start dockerd", timeout_s=30)
    except RuntimeError:
        client = None  # no docker engine here: only bubblewrap images to list
    images = survey(args.output_dirs, client)
    stores = ", ".join(map(str, args.output_dirs))
    table = Table(title=f"Derived harness images ({len(images)}); kept by the runs in {stores}")
    for col in ("kind", "image", "kept by"):
        table.add_column(col, overflow="fold")
    for image in images:
        table.add_row(image.kind, image.ref, ", ".join(image.runs) or "-")
    console.print(table)
    if not args.prune:
        return 0
    stays = []
    for image in (i for i in images if not i.runs):
        why = remove(image, client)
        console.print(f"{'kept' if why else 'removed'} {image.kind} {image.ref}" + (f": {why}" if why else ""),
                      markup=False, highlight=False, soft_wrap=True)
        stays += [image.ref] if why else []
    return 1 if stays else 0
