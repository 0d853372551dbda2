"""Sandbox figures per backend: create → exec true → destroy latency, and 160 sandboxes alive at once.

    sudo .venv/bin/python -m bench.sandbox_bench                       # both backends, print markdown
    sudo .venv/bin/python -m bench.sandbox_bench --backends docker --alive 40 --rounds 10
    sudo .venv/bin/python -m bench.sandbox_bench --compare bb773f7     # this checkout vs that commit

``--compare REV`` measures create → exec → destroy of this checkout's sandboxes against those of
commit REV side by side: REV's tree is exported (git archive) and mapped into a ``nightshift``
package of its own, each version runs in its own worker process, and the rounds alternate between
the two, so both see the same host load. (bench/sandbox_compare.py does the work.)

"Alive" means created and holding a running command (``sleep``), as during a trial's agent phase;
memory is the host's MemTotal - MemAvailable before and while all are alive, divided by the count,
so it includes the engine's and the kernel's share (shims, cgroups, loop devices, mounts).
Images default to the latest local build (scripts/build_sandbox_image.py).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.smoke import add_smoke, apply_smoke, judged  # noqa: E402
from nightshift.contracts import SandboxLimits, SandboxSpec  # noqa: E402
from nightshift.sandbox.factory import backend_for  # noqa: E402
from nightshift.sandbox.images import latest_build  # noqa: E402

LIMITS = SandboxLimits(cpus=1, memory_mb=512, pids=128, disk_mb=256)


def used_mib() -> float:
    info = dict(line.split(":", 1) for line in Path("/proc/meminfo").read_text().splitlines())
    return (int(info["MemTotal"].split()[0]) - int(info["MemAvailable"].split()[0])) / 1024


def running(pattern: str) -> int:
    out = subprocess.run(["pgrep", "-c", "-f", pattern], capture_output=True, text=True).stdout
    return int(out.strip() or 0)


def pss_mib(box) -> float:
    """Proportional set size of the sandbox's processes (and, for docker, its containerd shim)."""
    pids = set(box.cgroups.pids())
    if hasattr(box, "spare"):
        pids |= {int(Path(f"/proc/{min(box.spare)}/stat").read_text().rsplit(")", 1)[1].split()[1])}
    total_kib = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        total_kib += sum(int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:"))
    return total_kib / 1024


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def lifecycle(backend, rounds: int) -> dict[str, float]:
    totals, creates, execs, destroys = [], [], [], []
    for i in range(rounds):
        t0 = time.perf_counter()
        box = backend.create(SandboxSpec(run_id="bench", trial_id=f"life{i}", limits=LIMITS))
        t1 = time.perf_counter()
        assert box.exec("true", timeout_s=30).exit_code == 0
        t2 = time.perf_counter()
        box.destroy()
        t3 = time.perf_counter()
        totals.append(t3 - t0), creates.append(t1 - t0), execs.append(t2 - t1), destroys.append(t3 - t2)
    ms = {name: [1000 * v for v in values] for name, values in
          (("total", totals), ("create", creates), ("exec", execs), ("destroy", destroys))}
    return {f"{name}_{q}": percentile(values, p) for name, values in ms.items()
            for q, p in (("p50", 0.5), ("p95", 0.95))}


def alive_at_once(backend, count: int, workers: int) -> dict[str, float]:
    baseline = used_mib()
    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        boxes = list(pool.map(lambda i: backend.create(SandboxSpec(run_id="bench", trial_id=f"alive{i}",
                                                                   limits=LIMITS)), range(count)))
    created_s = time.perf_counter() - started
    for box in boxes:
        threading.Thread(target=box.exec, args=("sleep 3017", 600), daemon=True).start()
    deadline = time.monotonic() + 300
    while running("^sleep 3017$") < count and time.monotonic() < deadline:
        time.sleep(0.1)
    running_s = time.perf_counter() - started
    time.sleep(2)  # let memory settle
    alive_mib = used_mib() - baseline
    pss = sum(pss_mib(box) for box in boxes) / count
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda box: box.destroy(), boxes))
    return {"count": count, "create_all_s": created_s, "running_all_s": running_s,
            "mib_per_sandbox": alive_mib / count, "pss_per_sandbox": pss, "destroy_all_s": time.perf_counter() - t0}


def image_for(name: str) -> str:
    build = latest_build()
    if name == "docker":
        if build is None or build.image_id is None:
            sys.exit("no docker image: run .venv/bin/python scripts/build_sandbox_image.py first")
        return build.image_id
    return str(build.rootfs) if build else "host"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="bubblewrap,docker")
    parser.add_argument("--rounds", type=int, default=30, help="create→exec→destroy cycles per backend")
    parser.add_argument("--alive", type=int, default=160, help="sandboxes alive at once")
    parser.add_argument("--workers", type=int, default=16, help="threads creating sandboxes in parallel")
    parser.add_argument("--compare", metavar="REV", help="compare lifecycle cost with git commit REV, side by side")
    add_smoke(parser, rounds=2, alive=4, workers=2)
    args = apply_smoke(parser.parse_args())
    if args.compare:
        from bench.sandbox_compare import compare

        return judged(args, compare(args.compare, args.backends.split(","), args.rounds))
    own_root = None
    if "NIGHTSHIFT_SANDBOX_ROOT" not in os.environ:
        own_root = Path(tempfile.mkdtemp(prefix="nightshift-sandbox-bench-"))
        own_root.chmod(0o755)  # the bubblewrap jail (an unprivileged uid) must reach the sandbox folders
        os.environ["NIGHTSHIFT_SANDBOX_ROOT"] = str(own_root)
    load = Path("/proc/loadavg").read_text().split()[0]
    print(f"host: {os.cpu_count()} cores, load {load}, {used_mib():.0f} MiB in use; limits {LIMITS.model_dump()}\n")
    print("| backend | create→exec true→destroy p50 / p95 (ms) | create p50 | exec p50 | destroy p50 |"
          " alive | start all (s) | all running (s) | host MiB per sandbox | PSS MiB per sandbox | destroy all (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.backends.split(","):
        backend = backend_for(name, image_for(name))
        backend.reap()
        lifecycle(backend, 3)  # warm caches (image layers, page cache of the rootfs)
        life = lifecycle(backend, args.rounds)
        alive = alive_at_once(backend, args.alive, args.workers)
        print(f"| {name} | {life['total_p50']:.0f} / {life['total_p95']:.0f} | {life['create_p50']:.0f} | "
              f"{life['exec_p50']:.0f} | {life['destroy_p50']:.0f} | {alive['count']} | "
              f"{alive['create_all_s']:.1f} | {alive['running_all_s']:.1f} | {alive['mib_per_sandbox']:.1f} | "
              f"{alive['pss_per_sandbox']:.1f} | {alive['destroy_all_s']:.1f} |", flush=True)
    if own_root is not None:
        own_root.rmdir()  # every sandbox was destroyed: it must be empty
    return judged(args, 0)


if __name__ == "__main__":
    sys.exit(main())
