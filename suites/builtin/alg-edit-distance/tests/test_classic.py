from textdiff import edit_distance

for a, b, d in [("kitten", "sitting", 3), ("flaw", "lawn", 2), ("abc", "abc", 0), ("a", "b", 1), ("abcdef", "azced", 3)]:
    got = edit_distance(a, b)
    assert got == d, f"edit_distance({a!r}, {b!r}) = {got}, expected {d}"
print("ok")
