from typing import List


def parse_nested_parens(paren_string: str) -> List[int]:
    result = []
    for group in paren_string.split():
        level = deepest = 0
        for char in group:
            level = level + 1 if char == "(" else level - 1
            deepest = max(deepest, level)
        result.append(deepest)
    return result
