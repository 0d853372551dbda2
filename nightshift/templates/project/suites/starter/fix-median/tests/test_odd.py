from stats import median

data = [5, 1, 3]
assert median(data) == 3, median(data)
assert data == [5, 1, 3], "the input list must not be modified"
assert median([7]) == 7
try:
    median([])
except ValueError:
    pass
else:
    raise AssertionError("median([]) must raise ValueError")
print("ok")
