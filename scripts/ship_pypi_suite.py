"""Write the shipped repository suite's recipes (suites/pypi) from imported PyPI suites (maintainers only).

    .venv/bin/python scripts/ship_pypi_suite.py /tmp/pypi-import/toolz /tmp/pypi-import/click ... [--drop ID,...]
    .venv/bin/python scripts/ship_pypi_suite.py /tmp/pairs-import --add     # beside the cases already shipped

Each imported case keeps what cannot be rebuilt from its pinned sdists: case.toml (the image replaced by the
recipe reference ``pypi:NAME==VERSION``, the older release's for a release pair, and the workspace's tree hash
added; a pair's also the newer tests' tree hash), the instruction, the gold and breaking patches and the grading
scripts. suite.toml pins every sdist by sha256 (both of a pair). `nightshift build-suite pypi` rebuilds the rest
on any machine (docs/SUITES.md).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from nightshift.suites.pypi_tasks.shipped import ship  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
DESCRIPTION = ("real PyPI packages graded by their own tests: injected bugs (FAIL_TO_PASS: the tests the bug "
               "breaks; PASS_TO_PASS: the rest of its stable tests) and release pairs (the older release's source, "
               "the newer release's tests; FAIL_TO_PASS: the newer tests that fail on it)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("imported", nargs="+", type=Path, help="suite folders written by import-suite pypi")
    parser.add_argument("--out", type=Path, default=REPO / "suites" / "pypi")
    parser.add_argument("--drop", default="", help="comma-separated case ids to leave out (e.g. invalid ones)")
    parser.add_argument("--add", action="store_true", help="keep the cases and pins already in --out (a case of "
                        "the same id is replaced); default: --out holds only what is shipped now")
    args = parser.parse_args()
    drop = {d for d in args.drop.split(",") if d}
    wanted = {p.name for s in args.imported for p in s.iterdir() if (p / "case.toml").is_file()} - drop
    kept: dict[str, str] = {}
    if args.add and (args.out / "suite.toml").is_file():
        kept = tomllib.loads((args.out / "suite.toml").read_text()).get("shipped", {}).get("sdist_sha256", {})
    else:
        shutil.rmtree(args.out, ignore_errors=True)
    ids, pins = ship(args.imported, args.out, wanted)
    pins = {**kept, **pins}
    lines = [f'name = "pypi"\nversion = "1"\ndescription = {json.dumps(DESCRIPTION)}\n',
             "[shipped]  # a recipe: `nightshift build-suite pypi` builds the case folders on each machine",
             'build = "nightshift build-suite pypi"', "",
             "[shipped.sdist_sha256]  # the pinned sdist of each package; the build refuses another file"]
    lines += [f"{json.dumps(spec)} = {json.dumps(digest)}" for spec, digest in sorted(pins.items())]
    (args.out / "suite.toml").write_text("\n".join(lines) + "\n")
    print(f"shipped {len(ids)} cases into {args.out} ({len(pins)} sdists pinned in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
