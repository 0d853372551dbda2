#!/usr/bin/env bash
# An alternative correct solution (digit tables instead of the oracle's greedy subtraction): validate-suite
# checks that it passes every hidden test, so no hidden input depends on how the oracle is written.
set -euo pipefail
cat > roman.py <<'EOF2'
"""Roman numerals for the clock-face renderer."""

THOUSANDS = ["", "M", "MM", "MMM"]
HUNDREDS = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
TENS = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
ONES = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]


def to_roman(n):
    if type(n) is not int or not 0 < n < 4000:
        raise ValueError(f"cannot write {n!r} in Roman numerals")
    return THOUSANDS[n // 1000] + HUNDREDS[n // 100 % 10] + TENS[n // 10 % 10] + ONES[n % 10]


_ALL = {to_roman(n): n for n in range(1, 4000)}


def from_roman(text):
    if not isinstance(text, str) or text not in _ALL:
        raise ValueError(f"not a canonical Roman numeral: {text!r}")
    return _ALL[text]
EOF2
