#!/usr/bin/env bash
set -euo pipefail
cat > calendar_slots.py <<'EOF'
"""Find free time in a day of bookings (minutes since midnight)."""


def first_free_slot(bookings, day_start, day_end, length):
    busy = sorted((max(s, day_start), min(e, day_end)) for s, e in bookings if e > day_start and s < day_end)
    cursor = day_start
    for start, end in busy:
        if start - cursor >= length:
            return cursor
        cursor = max(cursor, end)
    return cursor if day_end - cursor >= length else None
EOF
