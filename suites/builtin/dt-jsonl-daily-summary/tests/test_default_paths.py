import os, subprocess, sys

if os.path.exists("summary.json"):
    os.remove("summary.json")
r = subprocess.run([sys.executable, "aggregate.py"], capture_output=True, text=True)
assert r.returncode == 0, f"aggregate.py failed ({r.returncode}):\n{r.stderr}"
with open("summary.json", encoding="utf-8") as f:
    got = f.read()
expected = """{
  "days": {
    "2024-05-01": {
      "click": 1,
      "view": 2
    },
    "2024-05-02": {
      "purchase": 1,
      "view": 1
    }
  },
  "skipped": 1,
  "total_events": 5,
  "unique_users": {
    "2024-05-01": 2,
    "2024-05-02": 2
  }
}
"""
if got != expected:
    print("expected:\n" + expected + "got:\n" + got)
    raise SystemExit(1)
print("ok")
