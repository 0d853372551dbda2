import os
import tempfile

from load import run

d = tempfile.mkdtemp()
with open(os.path.join(d, "customers.csv"), "w") as f:
    f.write("id,name,country\n1,Zed,US\n2,Amy,US\n3,Bob,UK\n4,Cy,UK\n5,Dee,FR\n")
with open(os.path.join(d, "orders.csv"), "w") as f:
    f.write("id,customer_id,amount,status,created\n1,1,50.0,paid,2024-01-01\n2,2,25.0,paid,2024-01-01\n"
            "3,2,25.0,paid,2024-01-02\n4,3,500.0,refunded,2024-01-02\n5,4,10.0,paid,2024-01-03\n"
            "6,5,9.0,paid,2024-01-03\n")
got = run("queries/top_customers.sql", d)
assert got == [("Amy", 50.0), ("Zed", 50.0), ("Cy", 10.0)], got
print("ok")
