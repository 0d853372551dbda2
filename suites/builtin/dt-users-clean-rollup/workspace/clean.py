"""Stage 1: deduplicate and normalise the raw user export."""
import csv
import sys


def main(argv):
    src, dst = argv[1], argv[2]
    seen = {}
    with open(src, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            uid = row["id"].strip()
            if uid in seen:
                continue
            seen[uid] = row
    with open(dst, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["id", "email", "name", "plan"])
        for uid in sorted(seen):
            row = seen[uid]
            email = row["email"].strip().lower()
            if "@" not in email:
                continue
            w.writerow([uid, email, row["name"].strip(), row["plan"].strip().lower() or "free"])


if __name__ == "__main__":
    main(sys.argv)
