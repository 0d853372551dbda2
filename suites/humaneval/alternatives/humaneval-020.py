from typing import List, Tuple


def find_closest_elements(numbers: List[float]) -> Tuple[float, float]:
    ordered = sorted(numbers)
    pairs = list(zip(ordered, ordered[1:]))
    return min(pairs, key=lambda pair: pair[1] - pair[0])
