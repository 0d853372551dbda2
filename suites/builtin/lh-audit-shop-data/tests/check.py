"""Run audit.py on the case data once per test process and return the report."""
import json
import os
import subprocess
import sys


def report():
    if os.path.exists("audit_report.json"):
        os.remove("audit_report.json")
    r = subprocess.run([sys.executable, "audit.py"], capture_output=True, text=True)
    assert r.returncode == 0, f"audit.py failed: {r.stderr[-500:]}"
    with open("audit_report.json") as handle:
        return json.load(handle)
