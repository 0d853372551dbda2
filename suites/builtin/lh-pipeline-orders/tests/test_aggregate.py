from decimal import Decimal

from pipeline.aggregate import summarise

rows = [{"date": "2024-03-05", "country": "DE", "eur": Decimal("0.10")},
        {"date": "2024-03-30", "country": "DE", "eur": Decimal("0.20")},
        {"date": "2024-03-01", "country": "AT", "eur": Decimal("1.005")},
        {"date": "2024-04-01", "country": "DE", "eur": Decimal("2")}]
got = summarise(rows)
assert got == {"2024-03": {"AT": "1.01", "DE": "0.30"}, "2024-04": {"DE": "2.00"}}, got
assert list(got["2024-03"]) == ["AT", "DE"]
print("ok")
