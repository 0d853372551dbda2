"""Split an amount of cents into equal shares."""


def split(total_cents, n):
    """Split ``total_cents`` into ``n`` shares that add up to the total.

    Shares differ by at most one cent; larger shares come first.
    """
    if n < 1:
        raise ValueError("n must be >= 1")
    return [total_cents // n] * n
