"""Totals per month and country."""
from collections import defaultdict


def summarise(rows):
    totals = defaultdict(lambda: defaultdict(float))
    for row in rows:
        totals[row["date"]][row["country"]] += float(row["eur"])
    return {m: {c: f"{v:.2f}" for c, v in sorted(by.items())} for m, by in sorted(totals.items())}
