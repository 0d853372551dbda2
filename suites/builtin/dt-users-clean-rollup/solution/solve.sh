#!/usr/bin/env bash
set -euo pipefail
cat > clean.py <<'EOF'
"""Stage 1: deduplicate and normalise the raw user export."""
import csv
import sys


def valid_email(email):
    if email.count("@") != 1:
        return False
    local, domain = email.split("@")
    return (bool(local) and "." in domain
            and not domain.startswith(".") and not domain.endswith("."))


def main(argv):
    src, dst = argv[1], argv[2]
    latest = {}
    with open(src, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            uid = int(row["id"].strip())
            prev = latest.get(uid)
            if prev is None or row["updated_at"] >= prev["updated_at"]:
                latest[uid] = row
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "email", "name", "plan"])
        for uid in sorted(latest):
            row = latest[uid]
            email = row["email"].strip().lower()
            if not valid_email(email):
                continue
            w.writerow([uid, email, row["name"].strip(), row["plan"].strip().lower() or "free"])


if __name__ == "__main__":
    main(sys.argv)
EOF
cat > rollup.py <<'EOF'
"""Stage 2: count cleaned users per plan and per email domain."""
import csv
import json
import sys
from collections import Counter


def main(argv):
    src, dst = argv[1], argv[2]
    with open(src, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    out = {
        "by_domain": dict(Counter(r["email"].split("@", 1)[1] for r in rows)),
        "by_plan": dict(Counter(r["plan"] for r in rows)),
        "total": len(rows),
    }
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
EOF
