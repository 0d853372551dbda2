#!/usr/bin/env bash
set -euo pipefail
cat > abtest.py <<'EOF'
"""Two-proportion z-test of the checkout experiment."""
import csv
import math


def analyse(path="data/events.csv"):
    counts = {"A": [0, 0], "B": [0, 0]}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            if row["variant"] in counts:
                counts[row["variant"]][0] += int(row["converted"])
                counts[row["variant"]][1] += 1
    (ca, na), (cb, nb) = counts["A"], counts["B"]
    pa, pb = ca / na, cb / nb
    pool = (ca + cb) / (na + nb)
    z = (pb - pa) / math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
    p = math.erfc(abs(z) / math.sqrt(2))
    return {"rate_a": round(pa, 4), "rate_b": round(pb, 4), "z": round(z, 3), "p_value": round(p, 4)}
EOF
