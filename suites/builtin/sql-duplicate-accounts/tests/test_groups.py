from load import run

got = run("queries/duplicates.sql")
assert got == [("ada@example.org", 3, 2, "1,2,6"), ("grace@example.org", 2, 3, "3,5")], got
print("ok")
