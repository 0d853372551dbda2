"""Convert order amounts to EUR."""
import csv
from decimal import Decimal


def load_rates(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return {r["currency"]: Decimal(r["eur_per_unit"]) for r in csv.DictReader(handle)}


def to_eur(amount, currency, rates):
    return round(float(amount) / float(rates[currency]), 2)
