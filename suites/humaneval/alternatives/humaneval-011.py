from typing import List


def string_xor(a: str, b: str) -> str:
    return "".join(str(int(x) ^ int(y)) for x, y in zip(a, b))
