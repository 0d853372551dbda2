"""``nightshift view RUN [--vs OTHER_RUN] [--static OUT] [--port N]``."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from nightshift.links import DEFAULT_PORT


def add_view_command(sub: argparse._SubParsersAction) -> None:
    view = sub.add_parser("view", help="open a run's trials in the local trajectory viewer (or write it as files)")
    view.add_argument("run", help="run folder (runs/<experiment>-<hash>) or its results.parquet")
    view.add_argument("--vs", metavar="OTHER_RUN", help="a second run: the same case and seed side by side")
    view.add_argument("--static", metavar="OUT", help="write the viewer as files into OUT instead of serving it")
    view.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"local port (default {DEFAULT_PORT})")
    view.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    view.set_defaults(fn=_view)


def _view(args: argparse.Namespace, console: Console) -> int:
    from nightshift.viewer.run_data import RunData, RunNotFound
    from nightshift.viewer.server import serve_forever, write_static

    try:
        run = RunData.open(args.run, "a")
        vs = RunData.open(args.vs, "b") if args.vs else None
    except RunNotFound as exc:
        console.print(str(exc), style="red", markup=False, highlight=False)
        return 2
    if args.static:
        out = Path(args.static)
        written = write_static(run, vs, out)
        console.print(f"wrote {written} files; open {(out / 'index.html').resolve()}", markup=False, highlight=False)
        return 0
    url = f"http://{args.host}:{args.port}/run/{run.run_id}/" + (f"vs/{vs.run_id}/" if vs else "")
    console.print(f"nightshift view: {url}  (Ctrl-C stops it)", markup=False, highlight=False)
    serve_forever(run, vs, args.host, args.port)
    return 0
