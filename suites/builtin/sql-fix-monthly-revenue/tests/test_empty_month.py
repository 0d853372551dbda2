import os
import tempfile

from load import run

d = tempfile.mkdtemp()
with open(os.path.join(d, "orders.csv"), "w") as f:
    f.write("id,customer_id,amount,status,created\n1,1,5.0,paid,2023-11-30\n2,1,7.5,paid,2024-02-01\n"
            "3,1,1.0,refunded,2024-02-03\n")
got = run("queries/monthly_revenue.sql", d)
assert got == [("2023-11", 5.0, 1), ("2023-12", 0.0, 0), ("2024-01", 0.0, 0), ("2024-02", 7.5, 1)], got
print("ok")
