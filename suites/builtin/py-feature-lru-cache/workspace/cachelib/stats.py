"""Cache statistics helpers."""


def hit_ratio(hits, misses):
    """Fraction of lookups that were hits, rounded to 3 decimals (0.0 if none)."""
    total = hits + misses
    if total == 0:
        return 0.0
    return round(hits / total, 3)
