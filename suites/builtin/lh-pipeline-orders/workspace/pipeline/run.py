"""Run the whole pipeline: python3 -m pipeline.run"""
import json
import os

from pipeline.aggregate import summarise
from pipeline.clean import clean
from pipeline.convert import load_rates, to_eur
from pipeline.ingest import read_orders


def main(raw="data/orders_raw.csv", rates_file="data/rates.csv", out="output/summary.json"):
    rates = load_rates(rates_file)
    rows = clean(read_orders(raw))
    for row in rows:
        row["eur"] = to_eur(row["amount"], row["currency"], rates)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(summarise(rows), indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
