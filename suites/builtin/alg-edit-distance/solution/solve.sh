#!/usr/bin/env bash
set -euo pipefail
cat > textdiff.py <<'EOF'
"""String distance helpers."""


def edit_distance(a, b, sub_cost=1):
    """Least cost of edits turning ``a`` into ``b``."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (0 if ca == cb else sub_cost)))
        prev = cur
    return prev[-1]
EOF
