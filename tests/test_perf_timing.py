"""Timing slots that real cases use: the perf cases are timed holding one exclusive slot of the host's timing pool
(a reserved CPU core here, the sandbox pinned to it), no two timing steps share a slot, a trial killed while timing
frees its slot, and a night of perf cases records speedups, timing noise and non-overlapping slot intervals."""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from nightshift.analysis.timing import overlapping_pairs, timing_summary
from nightshift.contracts import SandboxSpec
from nightshift.experiment.config import GpuSettings
from nightshift.gpu import GpuPool, cpu_slots, run_timing_step, timing_slots
from nightshift.graders import CaseGrader
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases
from tests.conftest import BUILTIN

PERF = [c for c in load_cases(BUILTIN) if c.domain == "perf"]
CORES = sorted(os.sched_getaffinity(0))


@pytest.fixture(scope="module")
def backend() -> BubblewrapBackend:
    return BubblewrapBackend()


def test_the_perf_domain_has_four_cases_timed_against_their_baseline() -> None:
    assert len(PERF) >= 4
    for case in PERF:
        assert case.timing is not None and case.timing.name in case.fail_to_pass and case.hidden is not None
        assert case.pass_to_pass and case.metrics[0].use == "speedup"


def test_host_without_cards_times_on_a_reserved_cpu_core() -> None:
    slots = timing_slots(GpuSettings(cards=0))
    assert [s.id for s in slots] == [f"cpu{CORES[-1]}"] and slots[0].cpu == CORES[-1]
    assert slots[0].env() == {"CUDA_VISIBLE_DEVICES": "", "NIGHTSHIFT_TIMING_CPU": str(CORES[-1])}
    assert [s.id for s in timing_slots(GpuSettings(cards=["GPU-a"]))] == ["GPU-a"]  # cards win where they exist
    with pytest.raises(ValueError, match="gpu.timing_cores"):
        cpu_slots([CORES[-1] + 64])


def test_a_correct_fast_function_passes_and_the_unchanged_one_does_not(backend: BubblewrapBackend) -> None:
    """Oracle vs untouched workspace of one perf case, on a pool of one CPU core the sandbox is pinned to."""
    case = next(c for c in PERF if c.id == "perf-pair-count")
    core = CORES[0]
    grader = CaseGrader(timing_pool=GpuPool(cpu_slots([core])))
    grades = {}
    for label, script in (("oracle", case.solution_script.read_text()), ("empty", None)):
        sandbox = backend.create(SandboxSpec(run_id="r", trial_id=f"t-perf-{label}",
                                             workspace_source=case.workspace_dir))
        try:
            if script:
                assert sandbox.exec(script, timeout_s=60).exit_code == 0
            grades[label] = grader.grade(case, sandbox)
        finally:
            sandbox.destroy()
    oracle, empty = grades["oracle"].timing, grades["empty"].timing
    assert grades["oracle"].all_passed and not grades["empty"].all_passed
    assert oracle.slot == empty.slot == f"cpu{core}" and oracle.pinned == str(core)
    assert oracle.affinity == [core] and oracle.cuda_visible == ""  # the timed processes saw one core, no card
    assert oracle.speedup >= case.timing.min_speedup > empty.speedup
    assert len(oracle.baseline_s) == len(oracle.candidate_s) == case.timing.repeats and oracle.noise is not None
    assert grades["empty"].p2p == (1, 1) and grades["empty"].hidden[0] == grades["empty"].hidden[1]  # still correct


def test_a_wrong_fast_function_is_not_timed_as_a_pass(backend: BubblewrapBackend) -> None:
    case = next(c for c in PERF if c.id == "perf-pair-count")
    sandbox = backend.create(SandboxSpec(run_id="r", trial_id="t-perf-wrong", workspace_source=case.workspace_dir))
    try:  # fast, and right on the public examples, but counts i == j pairs too
        sandbox.write_file("/workspace/pairs.py", b"from collections import Counter\n"
                           b"def count_pairs(values, target):\n    c = Counter(values)\n"
                           b"    return sum(c[v] * c[target - v] for v in c) // 2\n")
        grade = CaseGrader(timing_pool=GpuPool(cpu_slots("auto"))).grade(case, sandbox)
    finally:
        sandbox.destroy()
    timed = next(t for t in grade.tests if t.name == "speedup")
    assert not grade.all_passed and not timed.passed
    assert timed.detail.startswith("not timed") and grade.timing is None


TIMED = "python3 -S -c 'import os, time; time.sleep(0.15); print(sorted(os.sched_getaffinity(0)))'"


def test_no_two_timing_steps_share_a_slot(backend: BubblewrapBackend) -> None:
    """Eight real sandboxes time at once on a pool of two cores: per slot the recorded intervals never overlap,
    and each step ran on its own core only."""
    pool = GpuPool(cpu_slots(CORES[:2]))
    boxes = [backend.create(SandboxSpec(run_id="r", trial_id=f"t-slot-{i}")) for i in range(8)]
    runs = []
    lock = threading.Lock()

    def time_one(box) -> None:
        run = run_timing_step(pool, box.id, box, TIMED, timeout_s=30)
        with lock:
            runs.append(run)

    try:
        threads = [threading.Thread(target=time_one, args=(b,)) for b in boxes]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        for box in boxes:
            box.destroy()
    assert len(runs) == 8 and all(r.result.exit_code == 0 for r in runs)
    for run in runs:
        assert run.result.stdout.strip() == f"[{run.card.removeprefix('cpu')}]" and run.pinned == run.card[3:]
    for slot in {r.card for r in runs}:
        assert overlapping_pairs([(r.started, r.ended) for r in runs if r.card == slot]) == 0
    assert len({r.card for r in runs}) == min(2, len(CORES))
    assert sum(r.waited_s > 0.05 for r in runs) >= 4  # the slots were contended, so the check meant something


KILLED_WHILE_TIMING = """
import sys, time
from pathlib import Path
from nightshift.contracts import SandboxSpec
from nightshift.gpu import GpuPool, cpu_slots, run_timing_step
from nightshift.sandbox.bubblewrap import BubblewrapBackend
pool = GpuPool(cpu_slots([int(sys.argv[2])]), lock_dir=Path(sys.argv[1]))
box = BubblewrapBackend().create(SandboxSpec(run_id="killed-while-timing", trial_id="t-killed"))
print(box.id, flush=True)
run_timing_step(pool, "doomed", box, "sleep 120", timeout_s=300)
"""


def _held_elsewhere(lock_file: Path) -> bool:
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_a_trial_killed_while_timing_frees_its_slot(tmp_path: Path, backend: BubblewrapBackend) -> None:
    core = CORES[-1]
    child = subprocess.Popen([sys.executable, "-c", KILLED_WHILE_TIMING, str(tmp_path), str(core)],
                             stdout=subprocess.PIPE, text=True)
    try:
        sandbox_id = child.stdout.readline().strip()
        lock_file = tmp_path / f"card-cpu{core}.lock"
        deadline = time.monotonic() + 30
        while not (lock_file.exists() and _held_elsewhere(lock_file)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _held_elsewhere(lock_file), "the child never started its timing step"
        time.sleep(0.3)  # well inside `sleep 120`
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        pool = GpuPool(cpu_slots([core]), lock_dir=tmp_path, poll_s=0.01)
        got = threading.Event()

        def want() -> None:
            with pool.card("next-trial"):
                got.set()

        waiter = threading.Thread(target=want)
        waiter.start()
        assert got.wait(5), "the killed trial's timing slot never came back"
        waiter.join(5)
        pool.close()
        pinned = _pinned_cpuset(sandbox_id)
        assert sandbox_id in _cgroup_names() and (pinned is None or pinned.is_dir())  # the killed step's cgroups,
        backend.reap()  # its pinned cpuset too, are left over until the reaper removes them as a dead run's
        assert sandbox_id not in _cgroup_names() and (pinned is None or not pinned.exists())
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _cgroup_names() -> list[str]:
    from nightshift.sandbox.cgroups import CgroupSet

    return CgroupSet.leftovers()


def _pinned_cpuset(name: str) -> Path | None:
    """Where cgroup v1 keeps a pinned sandbox's own cpuset (v2 pins the sandbox's one cgroup: None)."""
    from nightshift.sandbox.cgroups import CgroupSet

    probe = CgroupSet(name)
    return None if probe.v2 else probe._cpuset_parent() / name


def test_a_night_of_perf_cases_records_speedups_noise_and_slots(tmp_path: Path, prefect_server,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The real flow on two perf cases: every timed trial has a slot, its intervals never overlap, the speedup
    is a score.speedup column with its unit, and the report shows the timing noise."""
    from nightshift.flows.nightly_eval import nightly_eval

    monkeypatch.setattr("nightshift.experiment.manifest.code_version", lambda: "test-code-version")
    exp = tmp_path / "exp.yaml"
    exp.write_text(f"""
name: perf-night
suites: [builtin]
cases: [perf-dedupe-keep-order, perf-range-sums]
variants:
  - {{name: strong, model: sim-strong}}
  - {{name: weak, model: sim-weak}}
seeds: [1]
concurrency: 4
infra_retries: 0
gpu: {{cards: 0, timing_cores: [{CORES[-1]}], lock_dir: {tmp_path / 'slots'}}}
model: {{simulator: {{latency_ms: 5}}}}
output_dir: out
""")
    run_dir = Path(nightly_eval(experiment_file=str(exp))["run_dir"])
    parquet = run_dir / "results.parquet"
    assert pq.read_schema(parquet).field("score.speedup").metadata == {b"unit": b"x", b"higher_is_better": b"true"}
    rows = pq.read_table(parquet).to_pylist()
    assert len(rows) == 4 and {r["status"] for r in rows} <= {"resolved", "failed", "step_limit"}
    timed = [r for r in rows if r["timing_slot"]]
    assert timed and all(r["timing_slot"] == f"cpu{CORES[-1]}" for r in timed)
    assert all(r["score.speedup"] is not None and r["timing_end"] > r["timing_start"] for r in timed)
    assert all((r["score.speedup"] >= 5) == (r["status"] == "resolved") for r in timed)
    summary = timing_summary([parquet])
    assert summary.overlaps == 0 and summary.slots[0].steps == len(timed)
    report = (run_dir / "report.md").read_text()
    assert "## Timing (cases graded by speed)" in report and "overlapping pairs" in report and "noise" in report


def test_the_gpu_check_runs_its_cpu_path_on_a_host_without_cards(tmp_path: Path) -> None:
    """bench/gpu_check.py, as prepared for a GPU machine, on CPU-core slots: ok, no overlaps, every step on its
    own core."""
    import json

    from tests.conftest import REPO

    out = tmp_path / "gpu_check.json"
    command = [sys.executable, "-m", "bench.gpu_check", "--cards", "0", "--per-case", "2",
               "--cores", ",".join(map(str, CORES[:2])), "--threads", "4", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(out.read_text())
    assert figures["ok"] and figures["slot_kind"] == "cpu cores" and figures["gradings"] == 2 * len(PERF)
    assert figures["slots"] and all(s["overlaps"] == 0 and s["saw_other_slot"] == 0 for s in figures["slots"])
    assert sum(s["steps"] for s in figures["slots"]) == 2 * len(PERF)  # the oracle and the untouched workspace
    assert "| slot | timing steps |" in done.stdout
