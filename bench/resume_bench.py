"""Resume at full size: how long a re-run of a 5,000-trial night takes to get through its finished trials,
and how many model calls it makes (docs/BENCHMARKS.md).

    .venv/bin/python -m bench.resume_bench            # --trials 5000 --killed-at 0.9 --concurrency 64

Two resumes of the same night, each through the nightly flow's own code (``prepare_rows``: every row
parsed and validated, broken cache entries and stray temporary files removed, the free-space check; then
``run_all`` with the rows on disk answering finished trials before any Prefect task is made):
  1. the night finished: every trial has its row; the resume must make 0 model calls in ≤ 60 s;
  2. the night was killed at 90 %: 4,500 rows on disk, the last 500 trials run (simulated trials of
     ``--trial-s`` seconds with one model request each, through the gateway to the simulator over HTTP).
Real: a `prefect server start`, the flow, run_all, the row files, the simulator. Simulated: the trial body.
"""

from __future__ import annotations

import argparse
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx
from prefect import flow
from prefect.settings import PREFECT_API_URL, temporary_settings

from bench.night_bench import BenchContext, _free_port, draw_night, quiet_console, result_row, simulated_trial
from nightshift.flows.night_rows import prepare_rows
from nightshift.flows.trial_map import run_all
from nightshift.gateway import ModelGateway
from nightshift.tasks.results import write_result


def served(sim: str) -> int:
    return httpx.get(sim.removesuffix("/v1") + "/sim/stats", timeout=10).json()["requests"]


NIGHT: list = []  # the night's trials: too big for flow parameters, as in nightly-eval (it reads its file)


@flow(name="resume-bench")
def resume(sim: str, work: str, concurrency: int) -> dict:
    """One resume as nightly-eval does it; the seconds and model calls it took."""
    trials = NIGHT
    run_dir = Path(work) / "tonight"
    calls, t0 = served(sim), time.monotonic()
    on_disk = prepare_rows(run_dir, trials, Path(work) / "cache", [])
    checked = time.monotonic() - t0
    ctx = BenchContext(run_dir, ModelGateway(sim, "sk-bench", max_retries=8, timeout_s=60))
    run_all(trials, ctx, concurrency, Path(work) / "cache", 0, trial_task=simulated_trial,
            finished=on_disk.finished())
    return {"seconds": time.monotonic() - t0, "rows_checked_s": checked, "model_calls": served(sim) - calls,
            "answered_from_rows": len(on_disk.finished()), "ran": len(trials) - len(on_disk.finished())}


def main(argv: list[str] | None = None) -> int:
    from nightshift.deployments.server import ensure_server, stop
    from nightshift.simulator.config import SimulatorConfig
    from nightshift.simulator.embedded import running_simulator

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=5000)
    p.add_argument("--killed-at", type=float, default=0.9, help="share of the night finished when it was killed")
    p.add_argument("--concurrency", type=int, default=64)
    p.add_argument("--trial-s", type=float, default=0.2, help="seconds one simulated trial works")
    args = p.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="nightshift-resume-bench-"))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so the finally below stops the Prefect server
    night = draw_night(args.trials, 1.0, 20261129, 20261130)
    night = [t.__class__(**{**t.__dict__, "duration_s": args.trial_s, "calls": 1}) for t in night]
    NIGHT[:] = night
    run_dir = work / "tonight"
    for t in night:  # the finished night: every row on disk, as run_trial wrote it
        write_result(run_dir, result_row(t, run_dir.name, t.duration_s))
    quiet_console()
    try:
        url = ensure_server(port=_free_port(), home=work / "prefect", state_dir=work, timeout_s=300)
        with temporary_settings(updates={PREFECT_API_URL: url}), \
                running_simulator(SimulatorConfig(latency_ms=20), []) as sim:
            finished = resume(sim, str(work), args.concurrency)
            killed = int(len(night) * args.killed_at)
            for t in night[killed:]:  # killed at 90 %: the last trials never wrote a row
                (run_dir / "results" / f"{t.trial_id}.json").unlink()
            partial = resume(sim, str(work), args.concurrency)
    finally:
        stop("prefect-server", work)
        shutil.rmtree(work, ignore_errors=True)
    print(f"resume of a finished {len(night)}-trial night: {finished['seconds']:.1f} s "
          f"(rows verified in {finished['rows_checked_s']:.1f} s), {finished['model_calls']} model calls, "
          f"{finished['answered_from_rows']} answered from rows")
    print(f"resume of a night killed at {100 * args.killed_at:.0f}%: {partial['seconds']:.1f} s "
          f"({partial['answered_from_rows']} answered from rows, {partial['ran']} run at concurrency "
          f"{args.concurrency}, {partial['model_calls']} model calls)")
    return 0 if finished["seconds"] <= 60 and finished["model_calls"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
