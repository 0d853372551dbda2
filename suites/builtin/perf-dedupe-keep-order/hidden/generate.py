"""Hidden tests for perf-dedupe-keep-order: seeded inputs, expected values from the reference below (stdlib only).

Run on the grading host as python3 -I -S generate.py --seed N --out DIR.
"""
import argparse
import json
import os
import shutil
import random

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE, ENTRY = 'dedupe', 'unique_in_order'


def reference(items):
    seen, kept = set(), []
    for item in items:
        if item not in seen:
            seen.add(item)
            kept.append(item)
    return kept

def inputs(rng):
    yield ([],)
    yield ([1, 1.0, True, "1", (1,), (1,)],)
    for _ in range(30):
        pool = [rng.randint(-50, 50) for _ in range(rng.randint(1, 40))] + ["".join(rng.choice("abc")
                for _ in range(rng.randint(0, 3))) for _ in range(rng.randint(0, 10))]
        yield ([rng.choice(pool) for _ in range(rng.randint(0, 200))],)

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
