"""Resume at full size: how long a re-run of a 5,000-trial night takes to get through its finished trials,
and how many model calls it makes (docs/BENCHMARKS.md).

    .venv/bin/python -m bench.resume_bench            # --trials 5000 --killed-at 0.9 --concurrency 64

First, what a user waits for: `nightshift run EXPERIMENT` of a finished night of the built-in suite (50 cases
× 2 simulated models × trials/100 seeds), end to end in a new process — imports, the server check, suite loading
and validation pins, the simulator for the model versions, the manifest, every row verified, the Parquet file,
the report and the artifacts. The night's rows are written first by bench/finished_night.py with the flow's own
pins; the command must make 0 model calls in ≤ 60 s. Printed: the wall time and when each of the flow's log
lines appeared.

Then two resumes of the same night, each through the nightly flow's own code (``prepare_rows``: every row
parsed and validated, broken cache entries and stray temporary files removed, the free-space check; then
``run_all`` with the rows on disk answering finished trials before any Prefect task is made):
  1. the night finished: every trial has its row; the resume must make 0 model calls in ≤ 60 s;
  2. the night was killed at 90 %: 4,500 rows on disk, the last 500 trials run (simulated trials of
     ``--trial-s`` seconds with one model request each, through the gateway to the simulator over HTTP).
Real: a `prefect server start`, the flow, run_all, the row files, the simulator. Simulated: the trial body.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from prefect import flow
from prefect.settings import PREFECT_API_URL, temporary_settings

from bench.night_bench import BenchContext, _free_port, draw_night, quiet_console, result_row, simulated_trial
from bench.smoke import add_smoke, apply_smoke, judged
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


EXPERIMENT = """name: resume-bench
suites: [builtin]
variants:
  - {{name: strong, model: sim-strong}}
  - {{name: weak, model: sim-weak}}
seeds: {seeds}
concurrency: 8
sandbox: {{backend: bubblewrap, image: host}}
output_dir: out
"""


def end_to_end(work: Path, trials: int, url: str) -> dict:
    """`nightshift run` of a finished night of ``trials`` trials, timed from outside as a user waits for it."""
    from bench.finished_night import write_finished_night

    project = work / "project"
    project.mkdir()
    seeds = list(range(1, max(1, trials // 100) + 1))
    (project / "night.yaml").write_text(EXPERIMENT.format(seeds=seeds))
    seeded = write_finished_night(str(project / "night.yaml"))
    run_dir = Path(seeded["run_dir"])
    env = {**os.environ, "PREFECT_API_URL": url, "COLUMNS": "120"}
    started = time.monotonic()
    proc = subprocess.Popen([str(Path(sys.executable).with_name("nightshift")), "run", "night.yaml", "--progress",
                             "log"], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in proc.stdout:
        lines.append((time.monotonic() - started, line.rstrip()))
        others = [p.name for p in run_dir.parent.iterdir() if p.is_dir() and not p.name.startswith(".")
                  and p != run_dir]
        if others:  # the bench's pins and the flow's differ: this would run the night for real
            proc.kill()
            raise SystemExit(f"`nightshift run` pinned another run ({others}) than bench/finished_night.py "
                             f"({run_dir.name}): the seeding no longer follows the flow's pins")
    code = proc.wait()
    wall = time.monotonic() - started
    if code != 0:
        raise SystemExit(f"nightshift run exited {code}:\n" + "\n".join(text for _, text in lines[-30:]))
    said = [text.rsplit(":", 1)[1].strip() for _, text in lines if "model calls by trials this invocation" in text]
    if not said or not (run_dir / "summary.json").is_file():
        raise SystemExit("nightshift run did not report its model calls or write summary.json:\n"
                         + "\n".join(text for _, text in lines[-30:]))
    return {"seconds": wall, "trials": seeded["trials"], "model_calls": int(said[-1]), "lines": lines}


def main(argv: list[str] | None = None) -> int:
    from nightshift.deployments.server import ensure_server, stop
    from nightshift.simulator.config import SimulatorConfig
    from nightshift.simulator.embedded import running_simulator

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=5000)
    p.add_argument("--killed-at", type=float, default=0.9, help="share of the night finished when it was killed")
    p.add_argument("--concurrency", type=int, default=64)
    p.add_argument("--trial-s", type=float, default=0.2, help="seconds one simulated trial works")
    add_smoke(p, trials=200, concurrency=8)
    args = apply_smoke(p.parse_args(argv))
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
        with temporary_settings(updates={PREFECT_API_URL: url}):
            user = end_to_end(work, args.trials, url)
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
    print(f"`nightshift run` of a finished {user['trials']}-trial night, end to end: {user['seconds']:.1f} s, "
          f"{user['model_calls']} model calls; its lines appeared at:")
    for at, text in user["lines"]:
        if " | " in text or text.startswith(("wall time", "Prefect UI")):  # the flow's log lines, not the tables
            print(f"  {at:6.1f} s  {text[:110]}")
    print(f"resume of a finished {len(night)}-trial night (in process, the flow's rows and run_all only): "
          f"{finished['seconds']:.1f} s "
          f"(rows verified in {finished['rows_checked_s']:.1f} s), {finished['model_calls']} model calls, "
          f"{finished['answered_from_rows']} answered from rows")
    print(f"resume of a night killed at {100 * args.killed_at:.0f}%: {partial['seconds']:.1f} s "
          f"({partial['answered_from_rows']} answered from rows, {partial['ran']} run at concurrency "
          f"{args.concurrency}, {partial['model_calls']} model calls)")
    met = user["seconds"] <= 60 and user["model_calls"] == 0 and finished["model_calls"] == 0
    return judged(args, 0 if met else 1)


if __name__ == "__main__":
    raise SystemExit(main())
