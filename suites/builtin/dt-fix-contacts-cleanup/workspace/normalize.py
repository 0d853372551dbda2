"""Clean an exported contact list: contacts.csv -> contacts_clean.csv."""
import sys


def fix_date(text):
    """US M/D/YYYY -> ISO YYYY-MM-DD."""
    month, day, year = text.split("/")
    return f"{year}-{day}-{month}"


def fix_phone(text):
    return "".join(ch for ch in text if ch.isdigit())


def main(argv):
    src = argv[1] if len(argv) > 1 else "contacts.csv"
    dst = argv[2] if len(argv) > 2 else "contacts_clean.csv"
    with open(src, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        name, email, phone, joined = [c.strip() for c in line.split(",")]
        out.append(",".join([name, email.lower(), fix_phone(phone), fix_date(joined)]))
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv)
