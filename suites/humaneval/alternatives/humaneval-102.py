def choose_num(x, y):
    # a walk down from y; x or y <= 0 ("two positive numbers") raises
    if x <= 0 or y <= 0:
        raise ValueError("x and y must be positive")
    for value in range(y, x - 1, -1):
        if value % 2 == 0:
            return value
    return -1
