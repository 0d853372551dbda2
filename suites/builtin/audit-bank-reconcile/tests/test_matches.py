from reconcile import reconcile

got = reconcile("data/bank.csv", "data/ledger.csv")
assert got == {"missing_in_ledger": [], "missing_in_bank": ["R4"], "amount_mismatch": ["R3", "R6"],
               "date_mismatch": ["R5"]}, got
print("ok")
