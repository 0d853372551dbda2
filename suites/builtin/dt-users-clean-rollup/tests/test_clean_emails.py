import csv, os, subprocess, sys, tempfile

emails = {"a@b.co": True, " MiXed@Case.ORG ": True, "x@sub.domain.io": True, "no-at.example.com": False,
          "@example.com": False, "two@@example.com": False, "a@b@c.com": False, "user@localhost": False,
          "user@.com": False, "user@com.": False, "": False}
rows = [(str(i + 1), e, f"U{i}", "2024-01-01 00:00:00", "free") for i, e in enumerate(emails)]
rows.append(("1", "Changed@B.CO", "U0", "2024-06-01 00:00:00", "free"))
rows.append(("3", "bad-now", "U2", "2024-06-01 00:00:00", "free"))
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
    with open(src, "w", newline="") as f:
        csv.writer(f).writerows([("id", "email", "name", "updated_at", "plan")] + rows)
    r = subprocess.run([sys.executable, "clean.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"clean.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, newline="") as f:
        got = [(r[0], r[1]) for r in list(csv.reader(f))[1:]]
expected = [("1", "changed@b.co"), ("2", "mixed@case.org")]
assert got == expected, f"expected (id, email) rows {expected}\ngot {got}"
print("ok")
