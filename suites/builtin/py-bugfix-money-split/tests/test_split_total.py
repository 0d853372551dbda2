from ledger.split import split

for total, n, expected in [(1000, 3, [334, 333, 333]), (1001, 4, [251, 250, 250, 250]),
                           (5, 1, [5]), (2, 5, [1, 1, 0, 0, 0]), (-1000, 3, [-334, -333, -333]),
                           (900, 3, [300, 300, 300])]:
    got = split(total, n)
    assert got == expected, f"split({total}, {n}) -> {got}, expected {expected}"
for total in range(0, 2000, 37):
    for n in range(1, 9):
        s = split(total, n)
        assert sum(s) == total and len(s) == n and max(s) - min(s) <= 1, (total, n, s)
        assert s == sorted(s, reverse=True), (total, n, s)
try:
    split(100, 0)
except ValueError:
    pass
else:
    raise AssertionError("split(100, 0) should raise ValueError")
print("ok")
