from typing import List


def separate_paren_groups(paren_string: str) -> List[str]:
    groups, depth, start = [], 0, 0
    text = paren_string.replace(" ", "")
    for index, char in enumerate(text):
        depth += 1 if char == "(" else -1
        if depth == 0:
            groups.append(text[start:index + 1])
            start = index + 1
    return groups
