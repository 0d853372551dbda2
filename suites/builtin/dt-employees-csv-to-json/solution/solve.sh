#!/usr/bin/env bash
set -euo pipefail
cat > to_json.py <<'EOF'
"""Group employees by department: CSV -> JSON."""
import csv
import json
import os
import sys


def main(argv):
    src = argv[1] if len(argv) > 1 else "data/employees.csv"
    dst = argv[2] if len(argv) > 2 else "out/departments.json"
    groups = {}
    with open(src, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader)]
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            rec = dict(zip(header, (cell.strip() for cell in row)))
            groups.setdefault(rec["department"], []).append({
                "id": int(rec["id"]),
                "name": rec["name"],
                "salary": int(rec["salary"]),
                "start_date": rec["start_date"],
            })
    out = {"departments": [
        {
            "name": name,
            "headcount": len(emps),
            "total_salary": sum(e["salary"] for e in emps),
            "employees": sorted(emps, key=lambda e: e["id"]),
        }
        for name, emps in sorted(groups.items())
    ]}
    parent = os.path.dirname(dst)
    if parent:
        os.makedirs(parent, exist_ok=True)
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
EOF
