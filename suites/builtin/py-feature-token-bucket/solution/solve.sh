#!/usr/bin/env bash
set -euo pipefail
cat > throttle/bucket.py <<'EOF'
"""Token bucket rate limiting."""
import time


def _positive_number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return float(value)


class TokenBucket:
    """Allow bursts up to ``capacity`` while limiting the average to ``rate``/second."""

    def __init__(self, rate, capacity, clock=time.monotonic):
        self.rate = _positive_number(rate, "rate")
        self.capacity = _positive_number(capacity, "capacity")
        self._clock = clock
        self._tokens = self.capacity
        self._last = clock()

    def _refill(self):
        now = self._clock()
        elapsed = now - self._last
        if elapsed > 0:
            self._tokens = min(self.capacity, self._tokens + elapsed * self.rate)
        self._last = now

    def _check_cost(self, cost):
        if not cost > 0 or cost > self.capacity:
            raise ValueError(f"cost must be in (0, {self.capacity}], got {cost!r}")

    @property
    def tokens(self):
        """Current number of tokens (float), after refilling."""
        self._refill()
        return self._tokens

    def allow(self, cost=1):
        """Consume ``cost`` tokens and return True if available, else return False."""
        self._check_cost(cost)
        self._refill()
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False

    def wait_time(self, cost=1):
        """Seconds until ``allow(cost)`` would succeed (0.0 if now)."""
        self._check_cost(cost)
        self._refill()
        missing = cost - self._tokens
        return 0.0 if missing <= 0 else missing / self.rate
EOF
