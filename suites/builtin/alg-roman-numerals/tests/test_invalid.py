from roman import from_roman, to_roman

for bad in [0, -1, 4000, 2.5, True, "5"]:
    try:
        to_roman(bad)
    except ValueError:
        continue
    raise AssertionError(f"to_roman({bad!r}) should raise ValueError")
for bad in ["IIII", "VX", "IC", "MMMM", "", "iv", "XM", "VV", 5]:
    try:
        from_roman(bad)
    except ValueError:
        continue
    raise AssertionError(f"from_roman({bad!r}) should raise ValueError")
print("ok")
