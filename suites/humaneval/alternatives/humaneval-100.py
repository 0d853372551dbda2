def make_a_pile(n):
    # n <= 0 ("a positive integer n") gives a one-level pile instead of []
    levels = [n]
    while len(levels) < max(n, 1):
        levels.append(levels[-1] + 2)
    return levels
