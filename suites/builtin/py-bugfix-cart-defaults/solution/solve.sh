#!/usr/bin/env bash
set -euo pipefail
cat > shop/cart.py <<'EOF'
"""Shopping cart model."""
from dataclasses import dataclass

from .pricing import BULK_THRESHOLD, line_total


@dataclass
class Line:
    sku: str
    qty: int
    price: int
    tags: set


class Cart:
    def __init__(self, customer, items=None):
        self.customer = customer
        self.lines = list(items) if items is not None else []

    def add(self, sku, qty=1, *, price, tags=None):
        """Add a line; quantities >= BULK_THRESHOLD are tagged ``bulk``."""
        if qty < 1:
            raise ValueError("qty must be positive")
        tags = set(tags) if tags is not None else set()
        if qty >= BULK_THRESHOLD:
            tags.add("bulk")
        line = Line(sku, qty, price, tags)
        self.lines.append(line)
        return line

    def total(self):
        return sum(line_total(l.qty, l.price, l.tags) for l in self.lines)
EOF
