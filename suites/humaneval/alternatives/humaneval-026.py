from typing import List


def remove_duplicates(numbers: List[int]) -> List[int]:
    seen_once, seen_more = set(), set()
    for value in numbers:
        (seen_more if value in seen_once else seen_once).add(value)
    return [value for value in numbers if value not in seen_more]
