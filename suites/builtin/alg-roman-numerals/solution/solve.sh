#!/usr/bin/env bash
set -euo pipefail
cat > roman.py <<'EOF'
"""Roman numerals for the clock-face renderer."""
import re

VALUES = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
_VALID = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")


def to_roman(n):
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 3999:
        raise ValueError(f"cannot write {n!r} in Roman numerals")
    out = []
    for value, letters in VALUES:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def from_roman(text):
    if not isinstance(text, str) or not text or not _VALID.fullmatch(text):
        raise ValueError(f"not a canonical Roman numeral: {text!r}")
    total, i = 0, 0
    for value, letters in VALUES:
        while text.startswith(letters, i):
            total += value
            i += len(letters)
    return total
EOF
