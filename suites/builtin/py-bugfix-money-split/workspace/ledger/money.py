"""Conversions between decimal strings and integer cents."""


def to_cents(amount):
    """Parse ``"12.34"`` into ``1234``. At most two decimals are allowed."""
    text = amount.strip()
    if not text or text.count(".") > 1:
        raise ValueError(f"invalid amount: {amount!r}")
    return int(float(text) * 100)


def fmt(cents):
    """Format integer cents as ``$1,234.56`` / ``-$5.00``."""
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}.{rest:02d}"
