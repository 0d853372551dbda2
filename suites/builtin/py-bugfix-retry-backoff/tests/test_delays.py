from resilient.backoff import delays

for args, expected in [((0.5, 2, 3, 5), [0.5, 1.0, 2.0, 3.0]), ((1, 2, 10, 1), []),
                       ((1, 3, 100, 4), [1, 3, 9]), ((2, 1, 5, 3), [2, 2])]:
    got = delays(*args)
    assert got == expected, f"delays{args} -> {got}, expected {expected}"
try:
    delays(1, 2, 10, 0)
except ValueError:
    pass
else:
    raise AssertionError("attempts=0 must raise ValueError")
print("ok")
