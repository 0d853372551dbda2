"""Hidden tests for perf-range-sums: seeded inputs, expected values from the reference below (stdlib only).

Run on the grading host as python3 -I -S generate.py --seed N --out DIR.
"""
import argparse
import json
import os
import shutil
import random

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE, ENTRY = 'ranges', 'range_sums'


def reference(values, queries):
    return [sum(values[lo:hi]) for lo, hi in queries]

def inputs(rng):
    yield ([], [])
    yield ([], [(0, 0)])
    yield ([4, -2, 7], [(0, 3), (1, 1), (2, 3), (0, 0)])
    for _ in range(30):
        values = [rng.randint(-100, 100) for _ in range(rng.randint(0, 80))]
        queries = []
        for _ in range(rng.randint(0, 20)):
            lo = rng.randint(0, len(values))
            queries.append((lo, rng.randint(lo, len(values))))
        yield (values, queries)

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--out", required=True)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    # distinct inputs only: each one is a test named by its content hash
    cases = list({repr(tuple(args)): tuple(args) for args in inputs(rng)}.values())
    files = os.path.join(options.out, "files")
    os.makedirs(files, exist_ok=True)
    shutil.copy(os.path.join(HERE, "runner.py"), files)
    with open(os.path.join(files, "inputs.json"), "w") as handle:
        json.dump({"module": MODULE, "entry_point": ENTRY, "per_input_s": 5, "inputs": [repr(c) for c in cases]},
                  handle)
    expected = [repr(reference(*args)) for args in cases]
    with open(os.path.join(options.out, "hidden.json"), "w") as handle:
        json.dump({"tests": [{"name": "stress", "command": "python3 -S /grader/hidden/runner.py",
                               "expected": expected, "inputs": [repr(c) for c in cases]}]}, handle)


main()
