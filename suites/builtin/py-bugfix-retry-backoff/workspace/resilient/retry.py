"""Retry a callable with exponential backoff."""
import time

from .backoff import delays


def retry(fn, attempts=3, base=0.1, factor=2.0, max_delay=5.0,
          retry_on=(Exception,), sleep=time.sleep):
    """Call ``fn`` until it succeeds or ``attempts`` tries are used up."""
    schedule = delays(base, factor, max_delay, attempts)
    for attempt in range(1, attempts):
        try:
            return fn()
        except Exception:
            sleep(schedule[attempt - 1])
    return None
