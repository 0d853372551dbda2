from collections import Counter


def histogram(test):
    counts = Counter(test.split())
    if not counts:
        return {}
    top = max(counts.values())
    return {letter: count for letter, count in counts.items() if count == top}
