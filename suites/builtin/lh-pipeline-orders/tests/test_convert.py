from decimal import Decimal

from pipeline.convert import load_rates, to_eur

rates = load_rates("data/rates.csv")
assert rates == {"EUR": Decimal("1"), "USD": Decimal("0.9"), "GBP": Decimal("1.17")}, rates
assert to_eur("50.00", "USD", rates) == Decimal("45.00")
assert to_eur("20.00", "GBP", rates) == Decimal("23.40")
assert to_eur("5.555", "EUR", rates) == Decimal("5.56")
assert to_eur("0.10", "USD", rates) == Decimal("0.09")
assert isinstance(to_eur("1", "EUR", rates), Decimal)
print("ok")
