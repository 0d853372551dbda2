import os, subprocess, sys

if os.path.exists("contacts_clean.csv"):
    os.remove("contacts_clean.csv")
r = subprocess.run([sys.executable, "normalize.py"], capture_output=True, text=True)
assert r.returncode == 0, f"normalize.py failed ({r.returncode}):\n{r.stderr}"
with open("contacts_clean.csv", newline="") as f:
    got = f.read()
expected = ('name,email,phone,joined\n'
            'Bob Stone,bob@example.com,5551234567,2023-12-12\n'
            '"Doe, Jane",jane.doe@example.com,5550100199,2024-03-07\n'
            'Ann Lee,ann@lee.io,15552223333,2023-11-02\n'
            '"O\'Brien, ""Mac""",mac@obrien.ie,5550000,\n')
assert got == expected, f"expected:\n{expected}\ngot:\n{got}"
print("ok")
