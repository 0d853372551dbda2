#!/usr/bin/env bash
set -euo pipefail
cat > audit.py <<'EOF'
"""Cross-check products, stock and orders; write audit_report.json."""
import csv
import json
import sys
from collections import Counter
from pathlib import Path


def audit(data):
    data = Path(data)
    with open(data / "products.csv", newline="") as handle:
        prices = {r["sku"]: float(r["price"]) for r in csv.DictReader(handle)}
    stock = json.loads((data / "stock.json").read_text())
    orders = [o for f in sorted((data / "orders").glob("*.json")) for o in json.loads(f.read_text())]
    ids = Counter(o["id"] for o in orders)
    ordered = Counter()
    report = {k: set() for k in ("unknown_sku", "price_mismatch", "duplicate_order_ids", "negative_stock", "oversold")}
    for order in orders:
        if order["sku"] not in prices:
            report["unknown_sku"].add(order["id"])
            continue
        ordered[order["sku"]] += int(order["qty"])
        if abs(float(order["unit_price"]) - prices[order["sku"]]) > 0.005:
            report["price_mismatch"].add(order["id"])
    report["duplicate_order_ids"] = {i for i, n in ids.items() if n > 1}
    report["negative_stock"] = {s for s, n in stock.items() if n < 0}
    report["oversold"] = {s for s, n in ordered.items() if n > stock.get(s, 0)}
    return {k: sorted(v) for k, v in report.items()}


if __name__ == "__main__":
    with open("audit_report.json", "w") as handle:
        json.dump(audit(sys.argv[1] if len(sys.argv) > 1 else "data"), handle, indent=2, sort_keys=True)
EOF
