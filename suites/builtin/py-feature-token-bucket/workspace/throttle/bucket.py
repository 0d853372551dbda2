"""Token bucket rate limiting."""
import time


class TokenBucket:
    """Allow bursts up to ``capacity`` while limiting the average to ``rate``/second."""

    def __init__(self, rate, capacity, clock=time.monotonic):
        raise NotImplementedError

    @property
    def tokens(self):
        """Current number of tokens (float), after refilling."""
        raise NotImplementedError

    def allow(self, cost=1):
        """Consume ``cost`` tokens and return True if available, else return False."""
        raise NotImplementedError

    def wait_time(self, cost=1):
        """Seconds until ``allow(cost)`` would succeed (0.0 if now)."""
        raise NotImplementedError
