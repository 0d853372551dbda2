"""Arithmetic helpers for pagination."""


def page_count(total, per_page):
    """Number of pages needed to show ``total`` items, ``per_page`` at a time.

    An empty collection has a single empty page.
    """
    if per_page < 1:
        raise ValueError("per_page must be >= 1")
    return total // per_page


def clamp(value, low, high):
    return max(low, min(high, value))
