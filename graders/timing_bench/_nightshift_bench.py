"""The timing step of a case graded by speed, run in the sandbox holding one slot of the timing pool.

Stdlib only; run as ``python3 -S -I _nightshift_bench.py --module M --function F --seed N --repeats R
--baseline FILE --workload FILE``. As the driver it never loads the workspace's code: for each repeat it
starts one process that times the case's baseline and one that times the candidate (/workspace/M.py),
in alternating order, each on the same fresh input ``make_args(seed + 7919 * repeat)`` (a new input each
repeat, so nothing cached by one repeat helps the next). Each timing process takes its clock before any
timed code is imported and reports the seconds of one call and a digest of the value it returned. The
driver prints one line, ``NIGHTSHIFT-TIMING {json}``: both lists of seconds, whether every repeat's
values were equal, the errors, and what the step saw of its slot (CUDA_VISIBLE_DEVICES, CPU affinity).
"""

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import time

MARK = "NIGHTSHIFT-TIMING "


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_one(options):
    perf = time.perf_counter  # taken before any timed code exists in this process
    records = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what the timed code prints goes to stderr, never into the record
    sys.stdout = sys.stderr
    sys.setrecursionlimit(10000)
    try:
        workload = _load(options.workload, "nightshift_workload")
        args = workload.make_args(options.seed + 7919 * options.index)
        if options.role == "baseline":
            function = getattr(_load(options.baseline, "nightshift_baseline"), options.function)
        else:
            sys.path.insert(0, "/workspace")
            function = getattr(importlib.import_module(options.module), options.function)
        start = perf()
        value = function(*args)
        seconds = perf() - start
        record = {"s": seconds, "digest": hashlib.sha256(repr(value).encode()).hexdigest()}
    except BaseException as exc:  # the candidate's failure is a result, reported by the driver
        record = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    records.write(json.dumps(record) + "\n")
    records.flush()


def drive(options):
    found = {"baseline_s": [], "candidate_s": [], "same_results": True, "errors": [],
             "visible": os.environ.get("CUDA_VISIBLE_DEVICES"), "cpus": sorted(os.sched_getaffinity(0))}
    common = ["--module", options.module, "--function", options.function, "--seed", str(options.seed),
              "--baseline", options.baseline, "--workload", options.workload]
    for index in range(options.repeats):
        order = ("baseline", "candidate") if index % 2 == 0 else ("candidate", "baseline")
        digests = {}
        for role in order:
            proc = subprocess.run([sys.executable, "-S", "-I", os.path.abspath(__file__), "--role", role,
                                   "--index", str(index), *common], capture_output=True, text=True)
            lines = proc.stdout.strip().splitlines()
            try:
                record = json.loads(lines[-1])
            except (IndexError, ValueError):
                record = {"error": f"exited {proc.returncode} without a timing: {proc.stderr.strip()[-300:]}"}
            if "error" in record:
                found["errors"].append(f"{role}, repeat {index + 1}: {record['error']}")
                continue
            found[f"{role}_s"].append(record["s"])
            digests[role] = record["digest"]
        if len(digests) == 2 and digests["baseline"] != digests["candidate"]:
            found["same_results"] = False
            found["errors"].append(f"repeat {index + 1}: the candidate's result differs from the baseline's")
        if found["errors"]:
            break
    print(MARK + json.dumps(found), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--role", choices=["baseline", "candidate"])
    parser.add_argument("--index", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=5)
    for name in ("--module", "--function", "--baseline", "--workload"):
        parser.add_argument(name, required=True)
    parser.add_argument("--seed", type=int, required=True)
    options = parser.parse_args()
    if options.role:
        time_one(options)
    else:
        drive(options)


main()
