import csv, io, json, os, subprocess, sys, tempfile
from decimal import Decimal, ROUND_HALF_UP

orders, expected = [], [["order_id", "order_date", "customer_email", "sku", "qty", "unit_price", "line_total"]]
for i in range(30):
    items = [{"sku": f"SKU-{i}-{j}", "qty": (i + j) % 5 + 1, "unit_price": round(0.5 + i * 1.37 + j * 0.05, 2)}
             for j in range(i % 4)]
    email = f"User{i}@Example.COM"
    day = f"2024-0{i % 9 + 1}-{i % 27 + 1:02d}"
    orders.append({"id": f"ORD{i:03d}", "created": f"{day}T12:00:00Z", "customer": {"name": str(i), "email": email},
                   "items": items})
    for it in items:
        p = Decimal(str(it["unit_price"]))
        q2 = lambda d: str(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
        expected.append([f"ORD{i:03d}", day, email.lower(), it["sku"], str(it["qty"]), q2(p), q2(p * it["qty"])])
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "o.json"), os.path.join(tmp, "l.csv")
    with open(src, "w") as f:
        json.dump(orders, f)
    r = subprocess.run([sys.executable, "flatten.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"flatten.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, encoding="utf-8", newline="") as f:
        got = list(csv.reader(f))
for n, (want, row) in enumerate(zip(expected, got)):
    assert want == row, f"row {n}: expected {want}, got {row}"
assert len(got) == len(expected), f"expected {len(expected)} rows, got {len(got)}"
print("ok")
