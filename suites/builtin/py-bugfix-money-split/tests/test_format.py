from ledger.money import fmt

for cents, expected in [(0, "$0.00"), (5, "$0.05"), (123456, "$1,234.56"), (-500, "-$5.00"),
                        (100000000, "$1,000,000.00")]:
    got = fmt(cents)
    assert got == expected, f"fmt({cents}) -> {got!r}, expected {expected!r}"
print("ok")
