#!/usr/bin/env bash
# An alternative correct solution (a minute-by-minute free map instead of the oracle's sweep): validate-suite
# checks that it passes every hidden test, so no hidden input depends on how the oracle is written.
set -euo pipefail
cat > calendar_slots.py <<'EOF2'
"""Find free time in a day of bookings (minutes since midnight)."""


def first_free_slot(bookings, day_start, day_end, length):
    free = [True] * max(0, day_end - day_start)
    for start, end in bookings:
        for minute in range(max(start, day_start), min(end, day_end)):
            free[minute - day_start] = False
    run = 0
    for offset, is_free in enumerate(free):
        run = run + 1 if is_free else 0
        if run >= length:
            return day_start + offset - length + 1
    return None
EOF2
