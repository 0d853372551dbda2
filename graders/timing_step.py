"""The timing step of a case graded by speed (``[timing]`` in case.toml), run after its other tests.

Only when every counted public and hidden test has passed: the case's ``timing/`` folder and the bench
driver (``timing_bench/_nightshift_bench.py``) are copied to /grader/timing, and the driver runs holding
one exclusive slot of the host's timing pool (gpu/: a card, or a reserved CPU core the sandbox is pinned
to). It times the case's slow baseline against the workspace's function, ``repeats`` times each, on
inputs seeded by the night, and checks that both return the same values. The speedup is
median(baseline) / median(candidate): both sides are measured in the same slot moments apart, so the
ratio does not depend on how fast the host is. The timing noise is the relative spread (stdev / mean) of
the per-repeat speedups. The FAIL_TO_PASS test named by ``timing.name`` passes at ``min_speedup``.

Trust: the timed process runs the agent's code, so the seconds it reports are as honest as that code;
what it cannot do is make the baseline slower (the baseline's process never loads the workspace) or reuse
one repeat's work in the next (each repeat gets a new input).
"""

from __future__ import annotations

import json
import math
import socket
import statistics
from pathlib import Path

from nightshift.contracts import Sandbox
from nightshift.gpu import GpuPool, run_timing_step
from nightshift.graders.logs import fold
from nightshift.models import Case, CaseTiming, TestOutcome, TimingResult
from nightshift.resources import package_path

MARK = "NIGHTSHIFT-TIMING "
INSIDE = "/grader/timing"


def bench_command(timing: CaseTiming, seed: int) -> str:
    return (f"python3 -S -I {INSIDE}/_nightshift_bench.py --module {timing.module} --function {timing.function} "
            f"--seed {seed} --repeats {timing.repeats} --baseline {INSIDE}/{Path(timing.baseline).name} "
            f"--workload {INSIDE}/{Path(timing.workload).name}")


def not_timed(case: Case, why: str) -> TestOutcome:
    """The timing test of a case whose correctness failed: no speed is worth measuring then."""
    assert case.timing is not None
    return TestOutcome(name=case.timing.name, kind="fail_to_pass", passed=False, duration_s=0.0,
                       detail=f"not timed: {why}", excluded=case.timing.name in case.excluded_tests)


def run_timing(case: Case, sandbox: Sandbox, pool: GpuPool, seed: int) -> tuple[TestOutcome, TimingResult]:
    """Time the case in one slot of ``pool``; the outcome of its timing test and what was measured."""
    timing = case.timing
    assert timing is not None
    sandbox.copy_in(case.root / "timing", INSIDE)
    sandbox.copy_in(package_path("nightshift.graders", "timing_bench"), INSIDE)
    run = run_timing_step(pool, getattr(sandbox, "id", "sandbox"), sandbox, bench_command(timing, seed),
                          timing.timeout_s)
    found = _report(run.result.stdout)
    result = TimingResult(test=timing.name, slot=run.card, host=socket.gethostname(), pinned=run.pinned,
                          waited_s=round(run.waited_s, 4), started=run.started, ended=run.ended,
                          baseline_s=[round(s, 6) for s in found.get("baseline_s", [])],
                          candidate_s=[round(s, 6) for s in found.get("candidate_s", [])],
                          affinity=found.get("cpus", []), cuda_visible=found.get("visible"))
    output = run.result.stdout + ("\n" + run.result.stderr if run.result.stderr.strip() else "")
    if run.result.timed_out:
        why = f"timed out after {timing.timeout_s:g}s (slower than the baseline?)"
    elif not found:
        why = f"the bench printed no result (exit {run.result.exit_code}):\n{fold(output)}"
    elif found["errors"]:
        why = "; ".join(found["errors"])[:600]
    else:
        why = ""
    if not why:
        result = _measured(result)
    passed = not why and result.speedup is not None and result.speedup >= timing.min_speedup
    detail = why or (f"speedup {result.speedup:.1f}x (needs {timing.min_speedup:g}x) over {timing.repeats} repeats, "
                     f"noise {result.noise:.1%}, slot {result.slot}")
    result = result.model_copy(update={"detail": detail})
    reward = None
    if result.speedup is not None:  # partial credit on a log scale: 1x gets nothing, min_speedup all of it
        reward = round(min(1.0, max(0.0, math.log(result.speedup) / math.log(timing.min_speedup))), 6)
    outcome = TestOutcome(name=timing.name, kind="fail_to_pass", passed=passed,
                          duration_s=round(run.result.duration_s, 3), detail=detail, reward=reward,
                          excluded=timing.name in case.excluded_tests, output=output)
    return outcome, result


def _report(stdout: str) -> dict:
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARK):
            try:
                found = json.loads(line[len(MARK):])
            except ValueError:
                return {}
            return found if isinstance(found, dict) and isinstance(found.get("errors"), list) else {}
    return {}


def _measured(result: TimingResult) -> TimingResult:
    """Speedup of the medians and the spread of the per-repeat speedups."""
    base, cand = result.baseline_s, result.candidate_s
    if not base or len(base) != len(cand):
        return result
    floor = 1e-7  # a call faster than the clock's resolution
    ratios = [b / max(c, floor) for b, c in zip(base, cand, strict=True)]
    speedup = statistics.median(base) / max(statistics.median(cand), floor)
    noise = statistics.pstdev(ratios) / statistics.fmean(ratios) if len(ratios) > 1 else None
    return result.model_copy(update={"speedup": round(speedup, 3), "noise": None if noise is None else round(noise, 4)})
