#!/usr/bin/env bash
# An alternative correct solution (memoised recursion instead of the oracle's row DP): validate-suite
# checks that it passes every hidden test, so no hidden input depends on how the oracle is written.
set -euo pipefail
cat > textdiff.py <<'EOF2'
"""String distance helpers."""
import functools


def edit_distance(a, b, sub_cost=1):
    @functools.lru_cache(maxsize=None)
    def cost(i, j):
        if i == 0 or j == 0:
            return i + j
        same = a[i - 1] == b[j - 1]
        return min(cost(i - 1, j) + 1, cost(i, j - 1) + 1, cost(i - 1, j - 1) + (0 if same else sub_cost))

    return cost(len(a), len(b))
EOF2
