from load import run

got = run("queries/top_customers.sql")
assert got == [("Linus", 200.0), ("Grace", 145.5), ("Barbara", 125.5)], got
print("ok")
