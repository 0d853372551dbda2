import os, subprocess, sys

if os.path.exists("output/order_lines.csv"):
    os.remove("output/order_lines.csv")
r = subprocess.run([sys.executable, "flatten.py"], capture_output=True, text=True)
assert r.returncode == 0, f"flatten.py failed ({r.returncode}):\n{r.stderr}"
with open("output/order_lines.csv", encoding="utf-8", newline="") as f:
    got = f.read()
expected = (
    "order_id,order_date,customer_email,sku,qty,unit_price,line_total\n"
    "A-1001,2024-04-02,dana.scully@fbi.gov,PEN-BLK,3,1.20,3.60\n"
    "A-1001,2024-04-02,dana.scully@fbi.gov,NOTEBOOK-A5,2,4.99,9.98\n"
    'A-1003,2024-04-03,w.skinner@fbi.gov,"STAPLER, HEAVY",1,19.99,19.99\n'
    "A-1003,2024-04-03,w.skinner@fbi.gov,STAPLES,10,0.13,1.25\n"
)
if got != expected:
    print("expected:\n" + expected + "got:\n" + got)
    raise SystemExit(1)
print("ok")
