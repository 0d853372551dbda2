"""A small suite with a held-out case carrying a canary in every protected file, for the split tests."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

from tests.conftest import BUILTIN

PUBLIC_CASE = "py-bugfix-slugify"
HELD_OUT_CASE = "alg-roman-numerals"  # has a hidden-test generator, so it is canaried too


def canary() -> str:
    return f"CANARY-{uuid.uuid4().hex}"


def canaried_suite(root: Path, mark: str, split: str = "heldout") -> Path:
    """suite/ with one public case and one ``split`` case whose instruction, workspace, tests, hidden-test
    generator and oracle all carry ``mark``."""
    suite = root / "suite"
    suite.mkdir(parents=True)
    (suite / "suite.toml").write_text('name = "canaried"\n')
    shutil.copytree(BUILTIN / PUBLIC_CASE, suite / PUBLIC_CASE)
    case = suite / HELD_OUT_CASE
    shutil.copytree(BUILTIN / HELD_OUT_CASE, case)
    meta = case / "case.toml"
    meta.write_text(meta.read_text().replace('split = "public"', f'split = "{split}"'))
    with (case / "instruction.md").open("a") as out:
        out.write(f"\n(Reference: {mark}.)\n")
    for rel in ("workspace/roman.py", "tests/test_to_roman.py", "hidden/generate.py"):
        with (case / rel).open("a") as out:
            out.write(f"\n# {mark}\n")
    with (case / "solution/solve.sh").open("a") as out:
        out.write(f"\n# {mark}\n")
    return suite
