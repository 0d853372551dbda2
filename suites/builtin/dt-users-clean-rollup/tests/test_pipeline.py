import os, shutil, subprocess

shutil.rmtree("build", ignore_errors=True)
r = subprocess.run(["bash", "run.sh"], capture_output=True, text=True)
assert r.returncode == 0, f"run.sh failed ({r.returncode}):\n{r.stderr}"
with open("build/users_clean.csv", newline="") as f:
    clean = f.read()
expected_clean = ("id,email,name,plan\n"
                  "1,alice@newmail.io,Alice Liddell,pro\n"
                  "3,carol@example.com,Carol,pro\n"
                  "7,erin@example.com,Erin,team\n"
                  "10,dave@example.com,Dave,free\n")
assert clean == expected_clean, f"build/users_clean.csv expected:\n{expected_clean}\ngot:\n{clean}"
with open("build/rollup.json") as f:
    rollup = f.read()
expected_rollup = """{
  "by_domain": {
    "example.com": 3,
    "newmail.io": 1
  },
  "by_plan": {
    "free": 1,
    "pro": 2,
    "team": 1
  },
  "total": 4
}
"""
assert rollup == expected_rollup, f"build/rollup.json expected:\n{expected_rollup}\ngot:\n{rollup}"
print("ok")
