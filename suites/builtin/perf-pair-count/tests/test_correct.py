from pairs import count_pairs

assert count_pairs([], 4) == 0
assert count_pairs([1, 3, 2, 2], 4) == 2
assert count_pairs([2, 2, 2], 4) == 3
assert count_pairs([-1, 5, 4, 0], 4) == 2
values = [3, 1]
assert count_pairs(values, 4) == 1 and values == [3, 1]
print("ok")
