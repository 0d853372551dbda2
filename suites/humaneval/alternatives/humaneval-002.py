import math


def truncate_number(number: float) -> float:
    return number - math.floor(number)
