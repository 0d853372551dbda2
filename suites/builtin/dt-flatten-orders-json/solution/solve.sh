#!/usr/bin/env bash
set -euo pipefail
cat > flatten.py <<'EOF'
"""Flatten nested orders JSON into one CSV row per line item."""
import csv
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

COLUMNS = ["order_id", "order_date", "customer_email", "sku", "qty", "unit_price", "line_total"]
CENT = Decimal("0.01")


def money(value):
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


def main(argv):
    src = argv[1] if len(argv) > 1 else "input/orders.json"
    dst = argv[2] if len(argv) > 2 else "output/order_lines.csv"
    with open(src, encoding="utf-8") as f:
        orders = json.load(f)
    parent = os.path.dirname(dst)
    if parent:
        os.makedirs(parent, exist_ok=True)
    with open(dst, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for order in orders:
            date = order["created"][:10]
            email = order["customer"]["email"].lower()
            for item in order["items"]:
                qty = int(item["qty"])
                price = Decimal(str(item["unit_price"]))
                w.writerow([order["id"], date, email, item["sku"], qty, money(price), money(price * qty)])


if __name__ == "__main__":
    main(sys.argv)
EOF
