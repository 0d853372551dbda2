import json
import os
import subprocess
import sys

if os.path.exists("results.json"):
    os.remove("results.json")
subprocess.run([sys.executable, "experiment.py"], check=True, capture_output=True)
got = json.load(open("results.json"))
assert got == {'ci_high': 3.093, 'ci_low': 1.077, 'mean_diff': 2.083, 'n': 60}, got
print("ok")
