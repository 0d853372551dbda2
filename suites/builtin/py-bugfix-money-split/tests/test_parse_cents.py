from ledger.money import to_cents, fmt

for text, expected in [("19.99", 1999), ("0.29", 29), ("5", 500), ("5.5", 550), ("-4.10", -410),
                       (" 1234.56 ", 123456), ("0.07", 7), ("1.15", 115), ("-0.01", -1)]:
    got = to_cents(text)
    assert got == expected and isinstance(got, int), f"to_cents({text!r}) -> {got!r}, expected {expected}"
for bad in ["1.005", "abc", "", "1,000", "1.2.3", "--1", "1e3", ".5.", "$5"]:
    try:
        to_cents(bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"to_cents({bad!r}) should raise ValueError")
for c in range(-300, 300, 7):
    assert to_cents(fmt(c).replace("$", "")) == c, c
print("ok")
