#!/usr/bin/env bash
set -euo pipefail
cat > loader.py <<'EOF'
"""Load user exports into one list of users."""
import csv
import json
from datetime import datetime
from pathlib import Path


def load_file(path):
    path = Path(path)
    if path.name.endswith(".v3.json"):
        users = json.loads(path.read_text())["users"]
        return [{"id": int(u["id"]), "name": f"{u['first']} {u['last']}", "signup": u["signup"][:10]} for u in users]
    with open(path, newline="") as handle:
        if path.name.endswith(".v2.csv"):
            return [{"id": int(r["user_id"]), "name": r["name"],
                     "signup": datetime.strptime(r["signup_date"], "%d/%m/%Y").date().isoformat()}
                    for r in csv.DictReader(handle, delimiter=";")]
        return [{"id": int(r["id"]), "name": r["full_name"], "signup": r["signup"]} for r in csv.DictReader(handle)]


def load_all(folder):
    users = {}
    for path in sorted(Path(folder).iterdir()):
        if path.name.endswith((".v1.csv", ".v2.csv", ".v3.json")):
            for user in load_file(path):
                users[user["id"]] = user
    return [users[i] for i in sorted(users)]
EOF
