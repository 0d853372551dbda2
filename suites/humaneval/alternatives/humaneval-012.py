from typing import List, Optional


def longest(strings: List[str]) -> Optional[str]:
    best = None
    for text in strings:
        if best is None or len(text) > len(best):
            best = text
    return best
