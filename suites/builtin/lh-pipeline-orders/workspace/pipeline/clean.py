"""Normalise fields and keep the orders that count as revenue."""
from datetime import datetime


def iso_date(text):
    for fmt in ("%Y-%m-%d", "%m/%d/%Y"):
        try:
            return datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    raise ValueError(f"unknown date format: {text!r}")


def clean(rows):
    out = []
    for row in rows:
        row = {k: v for k, v in row.items()}
        row["date"] = iso_date(row["date"])
        if row["status"] != "cancelled":
            out.append(row)
    return out
