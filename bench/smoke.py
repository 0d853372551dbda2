"""``--smoke``: every benchmark at a size of seconds, so CI proves each `bench/` command still runs.

A benchmark adds the flag with ``add_smoke(parser, rows=2000, ...)``; ``--smoke`` then sets those sizes and
``judged(args)`` turns target checks off (figures at a few trials say nothing about a 5,000-trial target).
The full sizes, and the figures docs/BENCHMARKS.md records, come from running without it.
"""

from __future__ import annotations

import argparse

SMOKE_NOTE = "smoke size: the command ran and printed its figures; targets are not judged at this size"


def add_smoke(parser: argparse.ArgumentParser, **sizes: object) -> None:
    """``--smoke`` sets ``sizes`` (argument dest -> value) over whatever was given."""
    listed = ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in sizes.items())
    parser.add_argument("--smoke", action="store_true",
                        help=f"a run of seconds that proves the command works ({listed}); targets not judged")
    parser.set_defaults(_smoke_sizes=sizes)


def apply_smoke(args: argparse.Namespace) -> argparse.Namespace:
    if getattr(args, "smoke", False):
        for name, value in args._smoke_sizes.items():
            setattr(args, name, value)
    return args


def judged(args: argparse.Namespace, code: int) -> int:
    """The exit status: ``code`` (1 = a target missed) at full size; 0 at smoke size, with the note."""
    if getattr(args, "smoke", False):
        print(SMOKE_NOTE)
        return 0
    return code
