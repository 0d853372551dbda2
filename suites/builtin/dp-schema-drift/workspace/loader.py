"""Load user exports into one list of users."""
import csv
from pathlib import Path


def load_file(path):
    with open(path, newline="") as handle:
        return [{"id": int(r["id"]), "name": r["full_name"], "signup": r["signup"]} for r in csv.DictReader(handle)]


def load_all(folder):
    users = []
    for path in sorted(Path(folder).glob("*.v1.csv")):
        users += load_file(path)
    return users
