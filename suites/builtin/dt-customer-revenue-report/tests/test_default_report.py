import os, subprocess, sys

if os.path.exists("report.csv"):
    os.remove("report.csv")
r = subprocess.run([sys.executable, "report.py"], capture_output=True, text=True)
assert r.returncode == 0, f"report.py failed ({r.returncode}):\n{r.stderr}"
with open("report.csv", encoding="utf-8", newline="") as f:
    got = f.read()
expected = (
    "customer_id,name,country,paid_orders,total\n"
    "C001,Acme Corp,US,2,100.30\n"
    'C002,"Globex, Inc.",US,2,100.30\n'
    "C003,Initech,DE,1,15.00\n"
    "C004,Umbrella,JP,0,0.00\n"
)
if got != expected:
    print("expected:\n" + expected + "got:\n" + got)
    raise SystemExit(1)
print("ok")
