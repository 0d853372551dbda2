#!/usr/bin/env bash
set -euo pipefail
python3 - <<'EOF'
from pathlib import Path
p = Path("spans/intervals.py")
s = p.read_text()
head = s[:s.index("def merge(")]
p.write_text(head + '''def merge(intervals):
    """Merge overlapping or touching intervals; return a sorted list of tuples."""
    pairs = []
    for start, end in intervals:
        if start > end:
            raise ValueError(f"invalid interval: ({start}, {end})")
        pairs.append((start, end))
    pairs.sort()
    merged = []
    for start, end in pairs:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def covered_length(intervals):
    """Total length covered by the union of ``intervals``."""
    return sum(end - start for start, end in merge(intervals))


def gaps(intervals, lo, hi):
    """Uncovered sub-intervals of ``[lo, hi]`` (zero-length gaps omitted)."""
    if lo > hi:
        raise ValueError("lo must be <= hi")
    result = []
    cursor = lo
    for start, end in merge(intervals):
        if start == end or end < lo or start > hi:
            continue
        if start > cursor:
            result.append((cursor, start))
        cursor = max(cursor, end)
    if cursor < hi:
        result.append((cursor, hi))
    return result
''')
EOF
