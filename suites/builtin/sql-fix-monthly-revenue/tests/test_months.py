from load import run

got = run("queries/monthly_revenue.sql")
expected = [("2024-01", 200.5, 2), ("2024-02", 371.0, 3), ("2024-03", 0.0, 0), ("2024-04", 0.0, 0),
            ("2024-05", 0.0, 0), ("2024-06", 20.0, 1)]
assert got == expected, got
print("ok")
