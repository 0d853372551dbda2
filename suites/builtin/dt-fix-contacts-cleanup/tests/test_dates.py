import csv, os, subprocess, sys, tempfile

cases = [("3/7/2024", "2024-03-07"), ("11/02/2023", "2023-11-02"), ("1/31/1999", "1999-01-31"),
         ("2/29/2024", "2024-02-29"), ("2/29/2023", ""), ("13/01/2024", ""), ("2/30/2024", ""),
         ("soon", ""), ("", ""), ("12/5/2022", "2022-12-05")]
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
    with open(src, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "email", "phone", "joined"])
        for i, (d, _) in enumerate(cases):
            w.writerow([f"p{i}", f"p{i}@x.org", "1", d])
    r = subprocess.run([sys.executable, "normalize.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"normalize.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, newline="") as f:
        rows = list(csv.reader(f))[1:]
assert len(rows) == len(cases), f"expected {len(cases)} rows, got {len(rows)}"
for (src_date, want), row in zip(cases, rows):
    assert row[3] == want, f"joined {src_date!r} -> {row[3]!r}, expected {want!r}"
print("ok")
