from spans.intervals import gaps

for args, expected in [
    (([(2, 4), (6, 7)], 0, 10), [(0, 2), (4, 6), (7, 10)]),
    (([], 0, 5), [(0, 5)]),
    (([(0, 5)], 0, 5), []),
    (([(-10, 2), (8, 50)], 0, 10), [(2, 8)]),
    (([(1, 2), (2, 3), (5, 5)], 0, 6), [(0, 1), (3, 6)]),
    (([(20, 30)], 0, 10), [(0, 10)]),
    (([(0, 1)], 3, 3), []),
]:
    got = gaps(*args)
    assert got == expected, f"gaps{args} -> {got}, expected {expected}"
try:
    gaps([], 5, 1)
except ValueError:
    pass
else:
    raise AssertionError("lo > hi must raise ValueError")
print("ok")
