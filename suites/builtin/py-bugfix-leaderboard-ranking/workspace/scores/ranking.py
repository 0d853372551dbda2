"""Rank leaderboard entries."""


def rank(entries):
    """Return ``[(rank, entry), ...]`` best first.

    Order: score descending, then name ascending. Tied scores share a rank and
    the following rank skips accordingly (1, 2, 2, 4).
    """
    ordered = sorted(entries, key=lambda e: (e.score, e.name), reverse=True)
    return [(i + 1, e) for i, e in enumerate(ordered)]
