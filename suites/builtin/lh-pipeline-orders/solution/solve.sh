#!/usr/bin/env bash
set -euo pipefail
cat > pipeline/ingest.py <<'EOF'
"""Read the raw orders export."""
import csv


def read_orders(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))
EOF
cat > pipeline/clean.py <<'EOF'
"""Normalise fields and keep the orders that count as revenue."""
from datetime import datetime


def iso_date(text):
    for fmt in ("%Y-%m-%d", "%Y/%m/%d", "%d/%m/%Y"):
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    raise ValueError(f"unknown date format: {text!r}")


def clean(rows):
    out = []
    for row in rows:
        row = {k: v.strip() for k, v in row.items()}
        row["date"] = iso_date(row["date"])
        if row["status"] == "paid":
            out.append(row)
    return out
EOF
cat > pipeline/convert.py <<'EOF'
"""Convert order amounts to EUR."""
import csv
from decimal import ROUND_HALF_UP, Decimal


def load_rates(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return {r["currency"]: Decimal(r["eur_per_unit"]) for r in csv.DictReader(handle)}


def to_eur(amount, currency, rates):
    return (Decimal(amount) * rates[currency]).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
EOF
cat > pipeline/aggregate.py <<'EOF'
"""Totals per month and country."""
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal


def summarise(rows):
    totals = defaultdict(lambda: defaultdict(Decimal))
    for row in rows:
        totals[row["date"][:7]][row["country"]] += Decimal(row["eur"])
    cent = Decimal("0.01")
    return {m: {c: str(v.quantize(cent, rounding=ROUND_HALF_UP)) for c, v in sorted(by.items())}
            for m, by in sorted(totals.items())}
EOF
python3 -m pipeline.run
