#!/usr/bin/env bash
# The oracle: run in /workspace, it must resolve the case (`nightshift validate-suite` checks it).
set -euo pipefail
cat > stats/median.py <<'PY'
"""The median of a list of numbers."""


def median(values):
    """Middle value of ``values``; the mean of the two middle values when there are an even number."""
    if not values:
        raise ValueError("median() of an empty list")
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
PY
