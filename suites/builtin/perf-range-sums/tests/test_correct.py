from ranges import range_sums

assert range_sums([], []) == []
assert range_sums([1, 2, 3], [(0, 3), (1, 2), (2, 2)]) == [6, 2, 0]
assert range_sums([-5, 5], [(0, 1), (0, 2)]) == [-5, 0]
values, queries = [1, 1], [(0, 2)]
range_sums(values, queries)
assert values == [1, 1] and queries == [(0, 2)]
print("ok")
