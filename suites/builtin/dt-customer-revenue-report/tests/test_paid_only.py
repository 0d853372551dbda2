import csv, os, subprocess, sys, tempfile

with tempfile.TemporaryDirectory() as tmp:
    cust, orders, out = (os.path.join(tmp, n) for n in ("c.csv", "o.csv", "r.csv"))
    with open(cust, "w", newline="") as f:
        f.write("customer_id,name,country\nK1,Kay,FR\nK2,Lee,KR\n")
    with open(orders, "w", newline="") as f:
        f.write("order_id,customer_id,amount,status\n"
                "1,K1,10.10,paid\n2,K1,0.20,PAID\n3,K1,5.05,paid \n4,K2,0.10,paid\n5,K2,0.20,paid\n"
                "6,K2,1000,cancelled\n7,K3,1,paid\n")
    r = subprocess.run([sys.executable, "report.py", cust, orders, out], capture_output=True, text=True)
    assert r.returncode == 0, f"report.py failed ({r.returncode}):\n{r.stderr}"
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
expected = [["customer_id", "name", "country", "paid_orders", "total"],
            ["K1", "Kay", "FR", "1", "10.10"], ["K2", "Lee", "KR", "2", "0.30"]]
assert rows == expected, f"expected {expected}\ngot      {rows}"
print("ok")
