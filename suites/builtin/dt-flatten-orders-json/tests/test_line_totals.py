import json, os, subprocess, sys, tempfile

orders = [{"id": "X1", "created": "2023-12-31T23:00:00-05:00", "customer": {"name": "n", "email": "MiXeD@Ex.ORG"},
           "items": [{"sku": "a", "qty": 3, "unit_price": 19.99}, {"sku": "b", "qty": 1, "unit_price": 0.125},
                     {"sku": "c", "qty": 7, "unit_price": 0.1}, {"sku": "d", "qty": 1, "unit_price": 2.675},
                     {"sku": "e", "qty": 100, "unit_price": 1.015}, {"sku": "f", "qty": 2, "unit_price": 5}]}]
expected = [
    "X1,2023-12-31,mixed@ex.org,a,3,19.99,59.97",
    "X1,2023-12-31,mixed@ex.org,b,1,0.13,0.13",
    "X1,2023-12-31,mixed@ex.org,c,7,0.10,0.70",
    "X1,2023-12-31,mixed@ex.org,d,1,2.68,2.68",
    "X1,2023-12-31,mixed@ex.org,e,100,1.02,101.50",
    "X1,2023-12-31,mixed@ex.org,f,2,5.00,10.00",
]
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "o.json"), os.path.join(tmp, "out", "l.csv")
    with open(src, "w") as f:
        json.dump(orders, f)
    r = subprocess.run([sys.executable, "flatten.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"flatten.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
assert lines[-1] == "", "file must end with a single newline"
for want, got in zip(expected, lines[1:]):
    assert want == got, f"expected {want!r}, got {got!r}"
assert len(lines) == len(expected) + 2, f"expected {len(expected)} data rows, got {len(lines) - 2}"
print("ok")
