"""Closed numeric intervals represented as (start, end) tuples."""


def parse_span(text):
    """Parse ``"3-7"`` -> ``(3, 7)`` and ``"5"`` -> ``(5, 5)``."""
    text = text.strip()
    if "-" in text[1:]:
        i = text.index("-", 1)
        start, end = int(text[:i]), int(text[i + 1:])
    else:
        start = end = int(text)
    if start > end:
        raise ValueError(f"empty span: {text!r}")
    return (start, end)


def merge(intervals):
    """Merge overlapping or touching intervals; return a sorted list of tuples."""
    raise NotImplementedError


def covered_length(intervals):
    """Total length covered by the union of ``intervals``."""
    raise NotImplementedError


def gaps(intervals, lo, hi):
    """Uncovered sub-intervals of ``[lo, hi]`` (zero-length gaps omitted)."""
    raise NotImplementedError
