"""String distance helpers."""


def edit_distance(a, b, sub_cost=1):
    """Least cost of edits turning ``a`` into ``b``."""
    if not a:
        return len(b)
    if not b:
        return len(a)
    prev = list(range(len(b)))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur.append(min(prev[j - 1] + 1, cur[j - 1] + 1, prev[j - 1] + cost))
        prev = cur
    return prev[-1]
