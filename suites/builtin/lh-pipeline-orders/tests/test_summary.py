import json
import os
import subprocess
import sys

if os.path.exists("output/summary.json"):
    os.remove("output/summary.json")
r = subprocess.run([sys.executable, "-m", "pipeline.run"], capture_output=True, text=True)
assert r.returncode == 0, r.stderr
got = json.load(open("output/summary.json"))
expected = '{\n  "2024-03": {"DE": "100.00", "GB": "23.40", "US": "45.00"},\n  "2024-04": {"DE": "19.99", "ES": "5.56", "US": "0.09"}\n}'
assert got == json.loads(expected), got
print("ok")
