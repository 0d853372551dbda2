from typing import List


def rescale_to_unit(numbers: List[float]) -> List[float]:
    low = min(numbers)
    span = max(numbers) - low
    return [(value - low) / span for value in numbers]
