"""Work session helpers."""
from .parse import parse_ts


def duration_minutes(start, end):
    """Whole minutes from ``start`` to ``end`` (ISO strings)."""
    a, b = parse_ts(start), parse_ts(end)
    if b < a:
        raise ValueError("end before start")
    return (b - a).seconds // 60


def sort_events(events):
    """Sort ``(timestamp, label)`` pairs chronologically (stable)."""
    return sorted(events, key=lambda ev: parse_ts(ev[0]))
