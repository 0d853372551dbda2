#!/usr/bin/env bash
set -euo pipefail
cat > experiment.py <<'EOF'
"""Paired bootstrap of the score difference model_b - model_a (the experiment of paper.md)."""
import csv
import json
import random

SEED = 1234
RESAMPLES = 2000


def load(path="data/scores.csv"):
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [float(r["model_b"]) - float(r["model_a"]) for r in rows]


def bootstrap_ci(diffs, seed=SEED, resamples=RESAMPLES, level=0.95):
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(diffs, k=len(diffs))) / len(diffs) for _ in range(resamples))
    tail = (1 - level) / 2
    return means[int(tail * resamples)], means[int((1 - tail) * resamples) - 1]


def main():
    diffs = load()
    low, high = bootstrap_ci(diffs)
    result = {"n": len(diffs), "mean_diff": round(sum(diffs) / len(diffs), 3),
              "ci_low": round(low, 3), "ci_high": round(high, 3)}
    with open("results.json", "w") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
EOF
python3 experiment.py
