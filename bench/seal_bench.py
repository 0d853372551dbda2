"""What sealing costs: the built-in suite (50 cases) sealed as held-out, then loaded and opened as a night does.

Times ``nightshift seal`` over every case, ``load_cases`` on the plain and the sealed suite (a night loads its
cases once: the sealed load decrypts each case into memory to read its metadata, then drops it), and the
per-trial ``open_case`` (decrypt into /dev/shm, remove after). Sizes: the plain tree and the sealed files.

    .venv/bin/python -m bench.seal_bench [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from nightshift.cli import main
from nightshift.suites import load_cases
from nightshift.suites.loader import open_case

BUILTIN = Path(__file__).resolve().parent.parent / "suites" / "builtin"


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _timed(fn, repeats: int) -> float:
    runs = []
    for _ in range(repeats):
        began = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - began)
    return statistics.median(runs)


def run(repeats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        plain, sealed = Path(tmp) / "plain", Path(tmp) / "sealed"
        shutil.copytree(BUILTIN, plain, ignore=shutil.ignore_patterns("__pycache__", "validation.json"))
        meta = plain / "suite.toml"
        for case_toml in plain.glob("*/case.toml"):  # every case held out: the suite default, not each case's own
            case_toml.write_text("\n".join(line for line in case_toml.read_text().splitlines()
                                           if not line.startswith("split")) + "\n")
        meta.write_text(meta.read_text() + '\nsplit = "heldout"\n')
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")
        os.environ.pop("NIGHTSHIFT_SPLIT_KEY_HELDOUT", None)
        began = time.perf_counter()
        assert main(["seal", str(plain), "--split", "heldout", "--out", str(sealed)]) == 0
        seal_s = time.perf_counter() - began
        cases = load_cases(sealed)
        plain_load = _timed(lambda: load_cases(plain), repeats)
        sealed_load = _timed(lambda: load_cases(sealed), repeats)

        def open_all() -> None:
            for case in cases:
                with open_case(case) as opened:
                    assert opened.instruction

        open_s = _timed(open_all, repeats)
        print(f"cases: {len(cases)}; plain tree {_size(plain) / 1e6:.2f} MB, sealed {_size(sealed) / 1e6:.2f} MB")
        print(f"nightshift seal (--out, new key): {seal_s:.2f} s")
        print(f"load_cases: plain {plain_load:.3f} s, sealed {sealed_load:.3f} s (median of {repeats})")
        print(f"open_case (per trial): {1000 * open_s / len(cases):.1f} ms per case (median of {repeats})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    run(parser.parse_args().repeats)
