#!/usr/bin/env bash
set -euo pipefail
cat > report.py <<'EOF'
"""Join customers and orders into a paid-revenue report."""
import csv
import sys
from decimal import Decimal


def main(argv):
    if len(argv) == 4:
        cust_path, order_path, out_path = argv[1:4]
    elif len(argv) == 1:
        cust_path, order_path, out_path = "data/customers.csv", "data/orders.csv", "report.csv"
    else:
        sys.exit("usage: report.py [CUSTOMERS ORDERS OUTPUT]")
    with open(cust_path, newline="", encoding="utf-8") as f:
        customers = list(csv.DictReader(f))
    totals = {c["customer_id"]: Decimal("0") for c in customers}
    counts = {c["customer_id"]: 0 for c in customers}
    with open(order_path, newline="", encoding="utf-8") as f:
        for o in csv.DictReader(f):
            cid = o["customer_id"]
            if o["status"] != "paid" or cid not in totals:
                continue
            totals[cid] += Decimal(o["amount"])
            counts[cid] += 1
    customers.sort(key=lambda c: (-totals[c["customer_id"]], c["customer_id"]))
    with open(out_path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["customer_id", "name", "country", "paid_orders", "total"])
        for c in customers:
            cid = c["customer_id"]
            w.writerow([cid, c["name"], c["country"], counts[cid], f"{totals[cid]:.2f}"])


if __name__ == "__main__":
    main(sys.argv)
EOF
