"""`nightshift export RUN --format atif|otel [--out F]`: a run's trajectories in a standard format, for other tools.

atif: Harbor's Agent Trajectory Interchange Format v1.4, JSON Lines, one trajectory object per trial
(results/atif.py). otel: OpenTelemetry GenAI spans (semantic conventions v1.41.0) as one OTLP/JSON
ExportTraceServiceRequest, one trace per trial (results/otel.py). Protected-split trials are written as their ids
and outcome only, never decrypted.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from nightshift.cli.output import console

FORMATS = {"atif": "atif.jsonl", "otel": "otlp.json"}  # format -> the default file's suffix


def add_export_command(sub: argparse._SubParsersAction) -> None:
    export = sub.add_parser("export", help="write a run's trajectories in a standard format (atif: Harbor's ATIF "
                                           "v1.4, one trajectory per line; otel: OpenTelemetry GenAI spans as "
                                           "OTLP/JSON); protected trials as ids only")
    export.add_argument("run", help="the run folder (runs/<experiment>-<hash>)")
    export.add_argument("--format", choices=list(FORMATS), default="atif", help="the format (default atif)")
    export.add_argument("--out", help="the file to write (default RUN/export/trajectories.atif.jsonl or "
                                      "RUN/export/trajectories.otlp.json; '-' for standard output)")
    export.set_defaults(fn=export_command)


def export_command(args: argparse.Namespace) -> int:
    from nightshift.atomic_files import atomic_write_text
    from nightshift.errors import StorageError
    from nightshift.results import atif, otel

    run_dir = Path(args.run).resolve()
    if run_dir.name == "results.parquet":
        run_dir = run_dir.parent
    if not (run_dir / "results").is_dir():
        raise StorageError(f"{args.run}: not a run folder (no results/); pass the folder `nightshift run` printed, "
                           f"e.g. runs/default-1a2b3c4d5e6f")
    if args.format == "atif":
        trajectories = list(atif.export_run(run_dir))
        text = "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in trajectories)
        redacted = sum(1 for t in trajectories if "redacted" in t.get("notes", ""))
        what = f"{len(trajectories)} trajectories ({redacted} redacted: protected split)"
    else:
        request = otel.export_run(run_dir)
        text = json.dumps(request, ensure_ascii=False) + "\n"
        spans = request["resourceSpans"][0]["scopeSpans"][0]["spans"]
        what = f"{len(spans)} spans of {len({s['traceId'] for s in spans})} trials"
    if args.out == "-":
        print(text, end="")
        return 0
    out = Path(args.out) if args.out else run_dir / "export" / f"trajectories.{FORMATS[args.format]}"
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out, text)
    console.print(f"wrote {what} to {out}", markup=False, highlight=False, soft_wrap=True)
    return 0
