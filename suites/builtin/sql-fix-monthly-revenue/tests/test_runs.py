from load import run

rows = run("queries/monthly_revenue.sql")
assert rows and all(len(r) == 3 for r in rows), rows
print("ok")
