#!/usr/bin/env bash
set -euo pipefail
cat > scores/ranking.py <<'EOF'
"""Rank leaderboard entries."""


def rank(entries):
    """Return ``[(rank, entry), ...]`` best first.

    Order: score descending, then name ascending. Tied scores share a rank and
    the following rank skips accordingly (1, 2, 2, 4).
    """
    ordered = sorted(entries, key=lambda e: (-e.score, e.name))
    result = []
    for i, e in enumerate(ordered):
        if i and e.score == ordered[i - 1].score:
            r = result[-1][0]
        else:
            r = i + 1
        result.append((r, e))
    return result
EOF
