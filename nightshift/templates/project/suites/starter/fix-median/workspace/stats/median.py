"""The median of a list of numbers."""


def median(values):
    """Middle value of ``values``; the mean of the two middle values when there are an even number."""
    if not values:
        raise ValueError("median() of an empty list")
    ordered = sorted(values)
    return ordered[len(ordered) // 2]
