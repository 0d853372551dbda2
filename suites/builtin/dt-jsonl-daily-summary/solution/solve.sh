#!/usr/bin/env bash
set -euo pipefail
cat > aggregate.py <<'EOF'
"""Summarise a JSON Lines event log per day."""
import json
import re
import sys

DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def valid(obj):
    return (isinstance(obj, dict)
            and all(isinstance(obj.get(k), str) for k in ("ts", "type", "user"))
            and DATE.fullmatch(obj["ts"][:10]) is not None)


def main(argv):
    src, dst = (argv[1], argv[2]) if len(argv) == 3 else ("events.jsonl", "summary.json")
    days, users = {}, {}
    total = skipped = 0
    with open(src, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                obj = None
            if not valid(obj):
                skipped += 1
                continue
            day = obj["ts"][:10]
            counts = days.setdefault(day, {})
            counts[obj["type"]] = counts.get(obj["type"], 0) + 1
            users.setdefault(day, set()).add(obj["user"])
            total += 1
    out = {"days": days, "unique_users": {d: len(u) for d, u in users.items()},
           "total_events": total, "skipped": skipped}
    with open(dst, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
EOF
