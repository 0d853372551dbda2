import os
import tempfile

from load import run

d = tempfile.mkdtemp()
with open(os.path.join(d, "accounts.csv"), "w") as f:
    f.write("id,email,created\n10,b@x.io,2024-01-01\n9,  B@X.IO,2024-01-01\n11,a@x.io,2024-01-01\n"
            "12,c@x.io,2024-01-01\n13,C@x.io  ,2023-01-01\n")
got = run("queries/duplicates.sql", d)
assert got == [("b@x.io", 2, 9, "9,10"), ("c@x.io", 2, 13, "12,13")], got
print("ok")
