#!/usr/bin/env bash
set -euo pipefail
cat > pairs.py <<'EOF'
"""Reconciliation helpers."""
from collections import Counter


def count_pairs(values, target):
    """How many index pairs i < j have values[i] + values[j] == target."""
    seen = Counter()
    count = 0
    for value in values:
        count += seen[target - value]
        seen[value] += 1
    return count
EOF
