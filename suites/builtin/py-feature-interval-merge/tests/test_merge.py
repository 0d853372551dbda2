from spans.intervals import merge

for given, expected in [
    ([(5, 7), (1, 3), (3, 4)], [(1, 4), (5, 7)]),
    ([(1, 3), (4, 5)], [(1, 3), (4, 5)]),
    ([], []),
    ([(1, 10), (2, 3), (4, 5)], [(1, 10)]),
    ([(2, 2), (2, 2)], [(2, 2)]),
    ([(0.5, 1.5), (1.5, 2.0), (-3, -1)], [(-3, -1), (0.5, 2.0)]),
    ([[8, 9], [1, 2]], [(1, 2), (8, 9)]),
]:
    got = merge(given)
    assert got == expected, f"merge({given}) -> {got}, expected {expected}"
    assert all(type(t) is tuple for t in got), f"merge must return tuples: {got}"
data = [(3, 4), (1, 2)]
merge(data)
assert data == [(3, 4), (1, 2)], "merge must not modify its input"
assert merge(iter([(1, 2), (2, 3)])) == [(1, 3)], "merge must accept any iterable"
try:
    merge([(1, 2), (5, 3)])
except ValueError:
    pass
else:
    raise AssertionError("start > end must raise ValueError")
print("ok")
