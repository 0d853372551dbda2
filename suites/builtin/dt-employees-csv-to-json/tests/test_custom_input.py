import csv, json, os, subprocess, sys, tempfile

rows = []
for i in range(1, 41):
    dept = ["ops", "Ops", "legal", "data"][(i * 7) % 4]
    rows.append((str(100 - 2 * i), f"Person {i}", dept, str(1000 * i + 17), f"2020-01-{(i % 28) + 1:02d}"))
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "in.csv")
    dst = os.path.join(tmp, "nested", "dir", "result.json")
    with open(src, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["id", "name", "department", "salary", "start_date"])
        w.writerows(rows)
    r = subprocess.run([sys.executable, "to_json.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"to_json.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, encoding="utf-8") as f:
        got = json.load(f)

groups = {}
for rid, name, dept, sal, start in rows:
    groups.setdefault(dept, []).append({"id": int(rid), "name": name, "salary": int(sal), "start_date": start})
expected = {"departments": [
    {"name": d, "headcount": len(es), "total_salary": sum(e["salary"] for e in es),
     "employees": sorted(es, key=lambda e: e["id"])}
    for d, es in sorted(groups.items())]}
if got != expected:
    print("expected:", json.dumps(expected)[:600])
    print("got:     ", json.dumps(got)[:600])
    raise SystemExit(1)
print("ok")
