"""Hidden tests for perf-pair-count: seeded inputs, expected values from the reference below (stdlib only).

Run on the grading host as python3 -I -S generate.py --seed N --out DIR.
"""
import argparse
import json
import os
import shutil
import random

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE, ENTRY = 'pairs', 'count_pairs'


def reference(values, target):
    seen, count = {}, 0
    for value in values:
        count += seen.get(target - value, 0)
        seen[value] = seen.get(value, 0) + 1
    return count

def inputs(rng):
    yield ([], 0)
    yield ([5], 10)
    yield ([5, 5, 5], 10)
    yield ([-3, 3, 0, 0], 0)
    for _ in range(30):
        span = rng.randint(1, 30)
        values = [rng.randint(-span, span) for _ in range(rng.randint(0, 120))]
        yield (values, rng.randint(-2 * span, 2 * span))

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
