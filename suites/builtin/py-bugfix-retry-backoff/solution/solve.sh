#!/usr/bin/env bash
set -euo pipefail
cat > resilient/backoff.py <<'EOF'
"""Exponential backoff schedules."""


def delays(base, factor, max_delay, attempts):
    """Sleeps between ``attempts`` tries: base, base*factor, ... capped at max_delay."""
    if attempts < 1:
        raise ValueError("attempts must be >= 1")
    return [min(base * factor ** i, max_delay) for i in range(attempts - 1)]
EOF
cat > resilient/retry.py <<'EOF'
"""Retry a callable with exponential backoff."""
import time

from .backoff import delays


def retry(fn, attempts=3, base=0.1, factor=2.0, max_delay=5.0,
          retry_on=(Exception,), sleep=time.sleep):
    """Call ``fn`` until it succeeds or ``attempts`` tries are used up."""
    schedule = delays(base, factor, max_delay, attempts)
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except retry_on:
            if attempt == attempts:
                raise
            sleep(schedule[attempt - 1])
EOF
