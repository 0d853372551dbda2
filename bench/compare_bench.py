"""Benchmark: `compare` over a million generated trial rows must finish in under 2 seconds.

Generates one Parquet file with the TrialResult columns (analysis.simulate: per-case difficulty model),
then times (1) ``analyse`` in process, as `nightshift compare` calls it, and (2) the `nightshift compare`
command end to end (a fresh Python process: imports included). Prints one line per figure; exits 1 if
the in-process time is over the budget.

    .venv/bin/python -m bench.compare_bench [--rows 1000000] [--budget 2.0]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.analysis import analyse
from nightshift.analysis.simulate import simulate_trials

VARIANTS = {"baseline": 0.50, "prompt-v2": 0.53, "more-steps": 0.51, "smaller-model": 0.42}
SEEDS = 10


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--budget", type=float, default=2.0, help="seconds allowed for one in-process compare")
    parser.add_argument("--repeats", type=int, default=3)
    add_smoke(parser, rows=20_000, repeats=1)
    args = apply_smoke(parser.parse_args(argv))
    cases = max(1, args.rows // (len(VARIANTS) * SEEDS))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.parquet"
        started = time.perf_counter()
        table = simulate_trials(cases, SEEDS, VARIANTS, infra_rate=0.01, rng_seed=1, run_id="bench")
        pq.write_table(table, path)
        print(f"generated {table.num_rows:,} rows ({cases:,} cases × {len(VARIANTS)} variants × {SEEDS} seeds) "
              f"in {time.perf_counter() - started:.1f}s; {path.stat().st_size / 1e6:.0f} MB Parquet")
        times, cpu = [], []
        for _ in range(args.repeats):
            started, started_cpu = time.perf_counter(), time.process_time()
            result = analyse([path], baseline="baseline", breakdowns=False)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        best, median = min(times), statistics.median(times)
        for c in result.headline():
            print(c.line)
        print(f"compare (in process, analyse): best {best:.2f}s, median {median:.2f}s of {args.repeats} "
              f"(CPU time, both cores: median {statistics.median(cpu):.2f}s); "
              f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        started = time.perf_counter()
        full = analyse([path], baseline="baseline")
        print(f"report analysis (with domain and split breakdowns, {len(full.comparisons)} comparisons): "
              f"{time.perf_counter() - started:.2f}s")
        started = time.perf_counter()
        subprocess.run([str(Path(sys.executable).with_name("nightshift")), "compare", str(path), "--baseline",
                        "baseline"], check=True, capture_output=True)
        print(f"`nightshift compare` end to end (new process, imports included): {time.perf_counter() - started:.2f}s")
    if median > args.budget and not args.smoke:
        print(f"FAIL: median {median:.2f}s is over the {args.budget:.1f}s budget")
        return 1
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
