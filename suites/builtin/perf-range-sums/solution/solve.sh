#!/usr/bin/env bash
set -euo pipefail
cat > ranges.py <<'EOF'
"""Dashboard aggregates."""
from itertools import accumulate


def range_sums(values, queries):
    """For each (lo, hi) in queries, the sum of values[lo:hi]."""
    prefix = [0, *accumulate(values)]
    return [prefix[hi] - prefix[lo] for lo, hi in queries]
EOF
