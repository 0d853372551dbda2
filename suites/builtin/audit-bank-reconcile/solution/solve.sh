#!/usr/bin/env bash
set -euo pipefail
cat > reconcile.py <<'EOF'
"""Compare the bank statement with the ledger."""
import csv
from datetime import date
from decimal import Decimal


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def reconcile(bank_csv, ledger_csv):
    bank = {}
    for r in _rows(bank_csv):
        d, m, y = r["date"].split(".")
        bank[r["ref"]] = (date(int(y), int(m), int(d)), int(Decimal(r["amount"]) * 100))
    ledger = {}
    for r in _rows(ledger_csv):
        sign = -1 if r["type"] == "debit" else 1
        ledger[r["ref"]] = (date.fromisoformat(r["booked"]), sign * int(Decimal(r["amount"]) * 100))
    both = sorted(set(bank) & set(ledger))
    return {"missing_in_ledger": sorted(set(bank) - set(ledger)), "missing_in_bank": sorted(set(ledger) - set(bank)),
            "amount_mismatch": [r for r in both if bank[r][1] != ledger[r][1]],
            "date_mismatch": [r for r in both if abs((bank[r][0] - ledger[r][0]).days) > 3]}
EOF
