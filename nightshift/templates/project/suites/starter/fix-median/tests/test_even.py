from stats import median

for values, expected in [([4, 1, 3, 2], 2.5), ([1, 2], 1.5), ([10, 0, 5, 5], 5), ([-3, 3], 0)]:
    got = median(values)
    assert got == expected, f"median({values}) -> {got!r}, expected {expected!r}"
print("ok")
