"""Dashboard aggregates."""


def range_sums(values, queries):
    """For each (lo, hi) in queries, the sum of values[lo:hi]."""
    return [sum(values[lo:hi]) for lo, hi in queries]
