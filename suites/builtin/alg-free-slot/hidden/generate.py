"""Hidden stress tests for alg-free-slot: seeded random inputs, expected outputs from the reference below.

Run on the grading host as python3 -I -S generate.py --seed N --out DIR (stdlib only).
"""
import argparse
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE, ENTRY = 'calendar_slots', 'first_free_slot'

def reference(bookings, day_start, day_end, length):
    busy = sorted((max(s, day_start), min(e, day_end)) for s, e in bookings if e > day_start and s < day_end)
    cursor = day_start
    for start, end in busy:
        if start - cursor >= length:
            return cursor
        cursor = max(cursor, end)
    return cursor if day_end - cursor >= length else None


def inputs(rng):
    for _ in range(40):
        bookings = []
        for _ in range(rng.randint(0, 8)):
            s = rng.randint(0, 20) * 15
            bookings.append((s, s + rng.randint(1, 8) * 15))
        yield (bookings, rng.choice([0, 60, 120]), rng.choice([240, 300, 360]), rng.choice([15, 30, 45, 60]))


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
        json.dump({"module": MODULE, "entry_point": ENTRY, "per_input_s": 2, "inputs": [repr(c) for c in cases]}, handle)
    expected = [repr(reference(*args)) for args in cases]
    with open(os.path.join(options.out, "hidden.json"), "w") as handle:
        json.dump({"tests": [{"name": "stress", "command": "python3 -S /grader/hidden/runner.py",
                               "expected": expected, "inputs": [repr(c) for c in cases]}]}, handle)


main()
