"""The original, slow implementation: what the timing step measures the speedup against."""



def unique_in_order(items):
    """Return the items of ``items`` without repeats, each at its first position."""
    kept = []
    for item in items:
        if item not in kept:
            kept.append(item)
    return kept
