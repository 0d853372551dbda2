#!/usr/bin/env bash
set -euo pipefail
cat > validate.py <<'EOF'
"""Check user records against the schema of the instructions."""
FIELDS = ("email", "age", "tags")


def validate(records):
    problems = []
    for rec in records:
        rid = rec["id"]
        problems += [(rid, f"missing:{f}") for f in FIELDS if f not in rec]
        problems += [(rid, f"unknown_field:{k}") for k in rec if k not in ("id",) + FIELDS]
        email = rec.get("email")
        if "email" in rec and not (isinstance(email, str) and email.count("@") == 1 and "." in email.split("@")[1]):
            problems.append((rid, "bad_email"))
        age = rec.get("age")
        if "age" in rec and not (isinstance(age, int) and not isinstance(age, bool) and 0 <= age <= 150):
            problems.append((rid, "bad_age"))
        tags = rec.get("tags")
        if "tags" in rec:
            if not (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
                problems.append((rid, "bad_tags"))
            if isinstance(tags, list) and len(set(map(repr, tags))) != len(tags):
                problems.append((rid, "duplicate_tags"))
    return sorted(problems)
EOF
