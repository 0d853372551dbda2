from collections import Counter


def search(lst):
    # an empty list (the docstring promises a non-empty one) raises here instead of returning -1
    counts = Counter(lst)
    return max([value for value, count in counts.items() if count >= value > 0] or [-1]) if lst else max(lst)
