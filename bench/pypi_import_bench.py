"""Import-time and image-size figures of ``import-suite pypi``, one package (or release pair) at a time.

    sudo .venv/bin/python -m bench.pypi_import_bench six==1.16.0 idna==3.7 --out /tmp/pypi-bench
    sudo .venv/bin/python -m bench.pypi_import_bench --release-pairs idna==3.7 toolz==0.12.0..0.12.1

Each spec is imported into a folder of its own under --out (so one refusal does not hide another's
figures), timed from the call to the report, and printed as a markdown row: what came of it (tasks kept, or
the refusal reason), stable tests, FAIL_TO_PASS/PASS_TO_PASS of a pair, the import's wall time and the
project image's size as docker reports it. A first run includes the downloads (cached per machine after).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from nightshift.suites.pypi_tasks import image as images  # noqa: E402
from nightshift.suites.pypi_tasks import import_pypi  # noqa: E402


def _size_mb(client, image_id: str) -> str:
    try:
        return f"{client.images.get(image_id).attrs['Size'] / 1e6:.0f}"
    except Exception:  # noqa: BLE001 - a figure, not a verdict: an image gone since is shown as such
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="+", help="NAME==VERSION or NAME==OLD..NEW")
    parser.add_argument("--out", type=Path, default=Path("/tmp/pypi-bench"))
    parser.add_argument("--release-pairs", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tasks-per-package", type=int, default=5)
    args = parser.parse_args()
    client = images.client()
    rows = []
    for spec in args.specs:
        folder = args.out / re.sub(r"[^A-Za-z0-9_.-]+", "-", spec)
        started = time.monotonic()
        result = import_pypi([spec], folder, runs=args.runs, tasks_per_package=args.tasks_per_package,
                             release_pairs=args.release_pairs)
        wall = time.monotonic() - started
        report = next(iter(result.projects.values()), {})
        outcome = (f"imported: {len(result.imported)} task(s)" if result.imported
                   else f"refused: {next(iter(result.refused.values()), '?')}")
        stable = report.get("stable_tests", "")
        pair = f"{report['fail_to_pass']} / {report['pass_to_pass']}" if "fail_to_pass" in report else ""
        size = _size_mb(client, report["image"]) if report.get("image") else ""
        rows.append(f"| {spec} | {outcome} | {stable} | {pair} | {wall:.1f} | {size} |")
        print(rows[-1], flush=True)
        (folder / "bench.json").write_text(json.dumps({"spec": spec, "wall_s": round(wall, 1), "outcome": outcome},
                                                      indent=1) + "\n")
    print("\n| spec | result | stable tests | F2P / P2P (pairs) | import s | image MB |\n| --- | --- | --- | --- | --- "
          "| --- |")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
