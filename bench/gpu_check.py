"""GPU check: the perf cases timed on this host's timing pool — real cards where nvidia-smi lists any.

Grades every perf case of the built-in suite many times at once (the oracle and the untouched workspace, in
turn) in bubblewrap sandboxes, with more grading threads than slots, so timing steps queue for the slots
while correctness tests run alongside. Reports, per slot: timing steps, seconds held, its utilisation
(held / the check's wall time), overlapping pairs of timing steps (must be 0) and whether each timed process
saw exactly its card (CUDA_VISIBLE_DEVICES) or core (CPU affinity); per card, the device utilisation
nvidia-smi sampled meanwhile; per case, the speedups and the timing noise. On a host without cards the
same path runs on reserved CPU cores (that is how it is tested here). Writes the figures as JSON and
prints the Markdown block for docs/SCALING.md. Exit 1 on any overlap, a slot mismatch, an oracle that
did not pass or an untouched workspace that did.

    .venv/bin/python -m bench.gpu_check [--cards auto|N|ID,ID] [--cores 0,1] [--per-case 6] [--threads 8]
                                        [--out bench/results/gpu_check.json]

Needs what `make test` needs (the venv, bubblewrap, root for the sandboxes); nothing from the network.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bench.smoke import add_smoke, apply_smoke, judged
from nightshift.analysis.timing import overlapping_pairs
from nightshift.contracts import SandboxSpec
from nightshift.experiment.config import GpuSettings
from nightshift.gpu import GpuPool, timing_slots
from nightshift.graders import CaseGrader
from nightshift.resources import package_path
from nightshift.sandbox.bubblewrap import BubblewrapBackend
from nightshift.suites import load_cases


class CardSampler:
    """nightshift-independent view of the cards: nvidia-smi's utilisation and memory every ``every_s``."""

    QUERY = "--query-gpu=uuid,index,utilization.gpu,memory.used"

    def __init__(self, every_s: float = 0.2) -> None:
        self.smi = shutil.which("nvidia-smi")
        self.every_s = every_s
        self.samples: dict[str, list[tuple[float, float]]] = {}  # card uuid -> (util %, memory MiB)
        self.index: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> CardSampler:
        if self.smi:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            out = subprocess.run([self.smi, self.QUERY, "--format=csv,noheader,nounits"], capture_output=True,
                                 text=True, timeout=10).stdout
            for line in out.splitlines():
                parts = [p.strip() for p in line.split(",")]
                if len(parts) == 4:
                    uuid, index, util, memory = parts
                    self.index[uuid] = index
                    try:
                        self.samples.setdefault(uuid, []).append((float(util), float(memory)))
                    except ValueError:
                        continue  # '[N/A]' on some cards

    def figures(self, card: str) -> dict:
        uuid = next((u for u, i in self.index.items() if card in (u, i)), card)
        got = self.samples.get(uuid, [])
        return {"samples": len(got), "util_mean_pct": round(statistics.fmean(u for u, _ in got), 1) if got else None,
                "util_max_pct": max((u for u, _ in got), default=None),
                "memory_max_mib": max((m for _, m in got), default=None)}


def parse_cards(text: str) -> int | list[str] | str:
    if text == "auto":
        return "auto"
    return int(text) if text.isdigit() else [c for c in text.split(",") if c]


def grade_one(case, backend, grader: CaseGrader, solved: bool, n: int) -> dict:
    sandbox = backend.create(SandboxSpec(run_id="gpu-check", trial_id=f"gpu-check-{case.id}-{n}",
                                         workspace_source=case.workspace_dir))
    try:
        if solved:
            done = sandbox.exec(case.solution_script.read_text(), timeout_s=120)
            if done.exit_code != 0:
                return {"case": case.id, "solved": solved, "error": f"oracle exited {done.exit_code}"}
        grade = grader.grade(case, sandbox)
    finally:
        sandbox.destroy()
    timing = grade.timing
    return {"case": case.id, "solved": solved, "resolved": grade.all_passed,
            "timing": timing.model_dump() if timing else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="auto", help="auto (nvidia-smi), a count, or ids joined by commas")
    parser.add_argument("--cores", default="auto", help="CPU-core slots where there are no cards: auto or 0,1")
    parser.add_argument("--per-case", type=int, default=6, help="gradings per perf case (half oracle, half not)")
    parser.add_argument("--threads", type=int, default=8, help="gradings at once (more than slots: they queue)")
    parser.add_argument("--out", type=Path, default=Path("bench/results/gpu_check.json"))
    add_smoke(parser, per_case=2, threads=4)
    args = apply_smoke(parser.parse_args(argv))
    cores = "auto" if args.cores == "auto" else [int(c) for c in args.cores.split(",")]
    lock_dir = Path(tempfile.mkdtemp(prefix="nightshift-gpu-check-"))
    settings = GpuSettings(cards=parse_cards(args.cards), timing_cores=cores, lock_dir=lock_dir)
    slots = timing_slots(settings)
    pool = GpuPool(slots, lock_dir=lock_dir)
    cases = [c for c in load_cases(package_path("nightshift.suites", "builtin")) if c.domain == "perf"]
    backend, grader = BubblewrapBackend(), CaseGrader(timing_pool=pool)
    work = [(c, n % 2 == 0, n) for n in range(args.per_case) for c in cases]
    kind = "cards" if slots and slots[0].cpu is None else "cpu cores"
    print(f"{len(work)} gradings of {len(cases)} perf cases on {len(slots)} {kind} ({', '.join(s.id for s in slots)}), "
          f"{args.threads} at once", flush=True)
    started = time.time()
    with CardSampler() as sampler, ThreadPoolExecutor(args.threads) as threads:
        results = list(threads.map(lambda w: grade_one(w[0], backend, grader, w[1], w[2]), work))
    wall = time.time() - started
    figures = summarise(results, slots, sampler, wall)
    figures.update({"host": platform.node(), "ran_at": datetime.now(UTC).isoformat(timespec="seconds"),
                    "slot_kind": kind, "gradings": len(work), "threads": args.threads, "wall_s": round(wall, 1),
                    "nvidia_smi": sampler.smi is not None})
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({**figures, "results": results}, indent=1))
    print(markdown(figures))
    print(f"figures: {args.out}")
    return judged(args, 0 if figures["ok"] else 1)


def summarise(results: list[dict], slots, sampler: CardSampler, wall: float) -> dict:
    timed = [r for r in results if r.get("timing")]
    per_slot, problems = [], [f"{r['case']}: {r['error']}" for r in results if "error" in r]
    for slot in slots:
        mine = [r["timing"] for r in timed if r["timing"]["slot"] == slot.id]
        held = sum(t["ended"] - t["started"] for t in mine)
        expect_visible = "" if slot.cpu is not None else slot.id
        wrong = [t for t in mine if t["cuda_visible"] != expect_visible
                 or (slot.cpu is not None and t["affinity"] != [slot.cpu])]
        entry = {"slot": slot.id, "steps": len(mine), "held_s": round(held, 1),
                 "utilisation": round(held / wall, 3) if wall else 0.0,
                 "overlaps": overlapping_pairs([(t["started"], t["ended"]) for t in mine]),
                 "saw_other_slot": len(wrong), "wait_max_s": round(max((t["waited_s"] for t in mine), default=0), 2)}
        if slot.cpu is None:
            entry["device"] = sampler.figures(slot.id)
        per_slot.append(entry)
    per_case = []
    for case in sorted({r["case"] for r in results}):
        for solved in (True, False):
            mine = [r for r in results if r["case"] == case and r["solved"] == solved and "error" not in r]
            speedups = [r["timing"]["speedup"] for r in mine if r.get("timing") and r["timing"]["speedup"]]
            noises = [r["timing"]["noise"] for r in mine if r.get("timing") and r["timing"]["noise"] is not None]
            wrong = [r for r in mine if r["resolved"] != solved]
            problems += [f"{case}: {'oracle did not pass' if solved else 'untouched workspace passed'}"] * bool(wrong)
            per_case.append({"case": case, "workspace": "oracle" if solved else "untouched", "graded": len(mine),
                             "speedup_median": round(statistics.median(speedups), 1) if speedups else None,
                             "noise_median": round(statistics.median(noises), 3) if noises else None,
                             "noise_max": round(max(noises), 3) if noises else None})
    problems += [f"{s['slot']}: {s['overlaps']} overlapping timing steps" for s in per_slot if s["overlaps"]]
    problems += [f"{s['slot']}: {s['saw_other_slot']} steps saw another card or core" for s in per_slot
                 if s["saw_other_slot"]]
    return {"ok": not problems, "problems": problems, "slots": per_slot, "cases": per_case}


def markdown(f: dict) -> str:
    lines = [f"GPU check on {f['host']} at {f['ran_at']} ({f['slot_kind']}; {f['gradings']} gradings, "
             f"{f['threads']} at once, {f['wall_s']} s): {'ok' if f['ok'] else 'FAILED: ' + '; '.join(f['problems'])}",
             "", "| slot | timing steps | held s | slot utilisation | overlapping pairs | saw another slot | "
             "device util mean / max % |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for s in f["slots"]:
        device = s.get("device") or {}
        util = (f"{device['util_mean_pct']} / {device['util_max_pct']}" if device.get("samples") else
                "no samples" if "device" in s else "n/a (CPU core)")
        lines.append(f"| {s['slot']} | {s['steps']} | {s['held_s']} | {s['utilisation']:.0%} | {s['overlaps']} | "
                     f"{s['saw_other_slot']} | {util} |")
    lines += ["", "| case | workspace | graded | speedup (median) | timing noise median / max |",
              "| --- | --- | --- | --- | --- |"]
    for c in f["cases"]:
        noise = "-" if c["noise_median"] is None else f"{c['noise_median']:.1%} / {c['noise_max']:.1%}"
        lines.append(f"| {c['case']} | {c['workspace']} | {c['graded']} | {c['speedup_median']}x | {noise} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
