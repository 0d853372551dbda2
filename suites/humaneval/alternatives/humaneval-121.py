def solution(lst):
    # an empty list (the docstring promises a non-empty one) raises instead of summing to 0
    if not lst:
        raise ValueError("lst must be non-empty")
    return sum(value for value in lst[::2] if value % 2 == 1)
