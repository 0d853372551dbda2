def add(lst):
    # an empty list (not the promised non-empty one) raises
    if not lst:
        raise ValueError("lst must be non-empty")
    return sum(value for value in lst[1::2] if value % 2 == 0)
