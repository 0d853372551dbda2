"""Exponential backoff schedules."""


def delays(base, factor, max_delay, attempts):
    """Sleeps between ``attempts`` tries: base, base*factor, ... capped at max_delay."""
    if attempts < 1:
        raise ValueError("attempts must be >= 1")
    return [min(base * factor ** (i + 1), max_delay) for i in range(attempts)]
