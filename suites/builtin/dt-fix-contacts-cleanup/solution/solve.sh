#!/usr/bin/env bash
set -euo pipefail
cat > normalize.py <<'EOF'
"""Clean an exported contact list: contacts.csv -> contacts_clean.csv."""
import csv
import re
import sys
from datetime import date

_US_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def fix_date(text):
    """US M/D/YYYY -> ISO YYYY-MM-DD; invalid dates become ''."""
    m = _US_DATE.fullmatch(text)
    if not m:
        return ""
    month, day, year = (int(g) for g in m.groups())
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return ""


def fix_phone(text):
    return "".join(ch for ch in text if ch.isdigit())


def main(argv):
    src = argv[1] if len(argv) > 1 else "contacts.csv"
    dst = argv[2] if len(argv) > 2 else "contacts_clean.csv"
    with open(src, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f) if any(c.strip() for c in r)]
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(rows[0])
        for row in rows[1:]:
            name, email, phone, joined = (c.strip() for c in row)
            w.writerow([name, email.lower(), fix_phone(phone), fix_date(joined)])


if __name__ == "__main__":
    main(sys.argv)
EOF
