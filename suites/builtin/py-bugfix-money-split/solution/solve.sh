#!/usr/bin/env bash
set -euo pipefail
cat > ledger/money.py <<'EOF'
"""Conversions between decimal strings and integer cents."""
import re

_AMOUNT = re.compile(r"(-?)(\d+)(?:\.(\d{1,2}))?")


def to_cents(amount):
    """Parse ``"12.34"`` into ``1234``. At most two decimals are allowed."""
    m = _AMOUNT.fullmatch(amount.strip())
    if not m:
        raise ValueError(f"invalid amount: {amount!r}")
    sign, whole, frac = m.groups()
    cents = int(whole) * 100 + int((frac or "0").ljust(2, "0"))
    return -cents if sign else cents


def fmt(cents):
    """Format integer cents as ``$1,234.56`` / ``-$5.00``."""
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}.{rest:02d}"
EOF
cat > ledger/split.py <<'EOF'
"""Split an amount of cents into equal shares."""


def split(total_cents, n):
    """Split ``total_cents`` into ``n`` shares that add up to the total.

    Shares differ by at most one cent; larger shares come first.
    """
    if n < 1:
        raise ValueError("n must be >= 1")
    sign = -1 if total_cents < 0 else 1
    q, r = divmod(abs(total_cents), n)
    return [sign * (q + 1)] * r + [sign * q] * (n - r)
EOF
