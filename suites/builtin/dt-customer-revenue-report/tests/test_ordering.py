import csv, os, random, subprocess, sys, tempfile
from decimal import Decimal

rng = random.Random(1234)
customers = [(f"Z{n:02d}", f"Name {n}", rng.choice(["US", "DE", "BR"])) for n in rng.sample(range(100), 25)]
orders, totals, counts = [], {c[0]: Decimal("0") for c in customers}, {c[0]: 0 for c in customers}
for i in range(200):
    cid = rng.choice(customers)[0]
    amount = Decimal(rng.choice([5, 10, 9, 90, 100, 1000])) / rng.choice([1, 10, 100])
    status = rng.choice(["paid", "paid", "paid", "refunded"])
    orders.append((str(i), cid, f"{amount:.2f}", status))
    if status == "paid":
        totals[cid] += amount
        counts[cid] += 1
with tempfile.TemporaryDirectory() as tmp:
    cpath, opath, out = (os.path.join(tmp, n) for n in ("c.csv", "o.csv", "r.csv"))
    with open(cpath, "w", newline="") as f:
        csv.writer(f).writerows([("customer_id", "name", "country")] + customers)
    with open(opath, "w", newline="") as f:
        csv.writer(f).writerows([("order_id", "customer_id", "amount", "status")] + orders)
    r = subprocess.run([sys.executable, "report.py", cpath, opath, out], capture_output=True, text=True)
    assert r.returncode == 0, f"report.py failed ({r.returncode}):\n{r.stderr}"
    with open(out, newline="", encoding="utf-8") as f:
        got = list(csv.reader(f))[1:]
expected = sorted(([c, n, k, str(counts[c]), f"{totals[c]:.2f}"] for c, n, k in customers),
                  key=lambda r: (-Decimal(r[4]), r[0]))
for want, row in zip(expected, got):
    assert want == row, f"expected row {want}, got {row}"
assert len(got) == len(expected), f"expected {len(expected)} rows, got {len(got)}"
print("ok")
