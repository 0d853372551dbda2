"""What keeping a night's suite version costs: the built-in suite (50 cases) written to the suite store as a night
writes it at its start, then again (a night of a version already stored), in three forms.

* plain: every case public, copied as it is;
* sealed: every case held out and sealed (`nightshift seal`), copied still sealed;
* held-out in the clear: every case held out in plain folders, sealed into the store with the split's key.

Prints the first write and the second (which finds the version and writes nothing) in milliseconds, and the
store's size beside the suite folder's.

    .venv/bin/python -m bench.suite_store_bench [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from cryptography.fernet import Fernet

from nightshift.cli import main
from nightshift.suites import load_cases
from nightshift.suites.store import keep_suite_version

BUILTIN = Path(__file__).resolve().parent.parent / "suites" / "builtin"


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def _held_out_copy(into: Path) -> Path:
    shutil.copytree(BUILTIN, into, ignore=shutil.ignore_patterns("__pycache__"))
    for case_toml in into.glob("*/case.toml"):  # every case held out: the suite default, not each case's own
        case_toml.write_text("\n".join(line for line in case_toml.read_text().splitlines()
                                       if not line.startswith("split")) + "\n")
    (into / "suite.toml").write_text((into / "suite.toml").read_text() + '\nsplit = "heldout"\n')
    return into


def _measure(label: str, suite: Path, repeats: int, tmp: Path) -> None:
    cases = load_cases(suite)
    first, again, size = [], [], 0
    for index in range(repeats):
        store = tmp / f"store-{label}-{index}"
        began = time.perf_counter()
        folder = keep_suite_version(store, "version", cases, [suite])
        first.append(time.perf_counter() - began)
        began = time.perf_counter()
        keep_suite_version(store, "version", cases, [suite])
        again.append(time.perf_counter() - began)
        size = _size(folder)
    print(f"{label:<22} {len(cases)} cases: first write {1000 * statistics.median(first):7.1f} ms, again "
          f"{1000 * statistics.median(again):5.2f} ms (median of {repeats}); store {size / 1e6:.2f} MB, "
          f"suite folder {_size(suite) / 1e6:.2f} MB")


def run(repeats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        os.environ["NIGHTSHIFT_SPLIT_KEY_HELDOUT"] = Fernet.generate_key().decode()
        _measure("plain", BUILTIN, repeats, tmp)
        clear = _held_out_copy(tmp / "clear")
        sealed = tmp / "sealed"
        assert main(["seal", str(clear), "--split", "heldout", "--out", str(sealed)]) == 0
        _measure("sealed", sealed, repeats, tmp)
        _measure("held-out in the clear", clear, repeats, tmp)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    run(parser.parse_args().repeats)
