"""Hidden tests for perf-prime-sieve: seeded inputs, expected values from the reference below (stdlib only).

Run on the grading host as python3 -I -S generate.py --seed N --out DIR.
"""
import argparse
import json
import os
import shutil
import random

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE, ENTRY = 'primes', 'primes_below'


def reference(limit):
    return [n for n in range(2, max(limit, 2)) if all(n % d for d in range(2, int(n ** 0.5) + 1))]

def inputs(rng):
    for limit in (-5, 0, 1, 2, 3, 4, 5, 9, 10, 11, 25, 26, 49, 50):
        yield (limit,)
    for _ in range(20):
        yield (rng.randint(0, 3000),)

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
