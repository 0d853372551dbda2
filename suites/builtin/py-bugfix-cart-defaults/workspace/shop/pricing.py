"""Price calculations. All amounts are integer cents."""

BULK_THRESHOLD = 10
BULK_DISCOUNT_PERCENT = 10


def line_total(qty, unit_price, tags):
    """Total for one line, applying the bulk discount when tagged ``bulk``."""
    total = qty * unit_price
    if "bulk" in tags:
        total -= total * BULK_DISCOUNT_PERCENT // 100
    return total
