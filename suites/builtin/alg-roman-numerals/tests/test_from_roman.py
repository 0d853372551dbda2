from roman import from_roman, to_roman

for n in range(1, 4000):
    assert from_roman(to_roman(n)) == n, n
print("ok")
