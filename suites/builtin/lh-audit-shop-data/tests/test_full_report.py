import json
import os
import shutil
import subprocess
import sys
import tempfile

from check import report
assert report() == {'duplicate_order_ids': ['o2'], 'negative_stock': ['STAPLER'], 'oversold': ['NB-A5', 'STAPLER'], 'price_mismatch': ['o4'], 'unknown_sku': ['o3', 'o6']}, report()
# another data folder: the script must not be tied to these files
d = tempfile.mkdtemp()
os.makedirs(os.path.join(d, "orders"))
with open(os.path.join(d, "products.csv"), "w") as f:
    f.write("sku,name,price\nA,a,1.00\n")
with open(os.path.join(d, "stock.json"), "w") as f:
    json.dump({"A": 1}, f)
with open(os.path.join(d, "orders", "x.json"), "w") as f:
    json.dump([{"id": "z", "sku": "A", "qty": 2, "unit_price": "1.004"}, {"id": "y", "sku": "B", "qty": 1, "unit_price": 1}], f)
work = tempfile.mkdtemp()
subprocess.run([sys.executable, os.path.abspath("audit.py"), d], cwd=work, check=True, capture_output=True)
got = json.load(open(os.path.join(work, "audit_report.json")))
assert got == {"duplicate_order_ids": [], "negative_stock": [], "oversold": ["A"], "price_mismatch": [], "unknown_sku": ["y"]}, got
print("ok")
