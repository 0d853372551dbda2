"""Load the CSV files of data/ into a fresh SQLite database (one table per file, TEXT/INTEGER/REAL columns)."""
import csv
import sqlite3
import sys
from pathlib import Path


def _typed(value):
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def load(data_dir="data", db=":memory:"):
    conn = sqlite3.connect(db)
    for path in sorted(Path(data_dir).glob("*.csv")):
        with path.open(newline="") as handle:
            rows = list(csv.reader(handle))
        header, body = rows[0], rows[1:]
        conn.execute(f"CREATE TABLE {path.stem} ({', '.join(header)})")
        conn.executemany(f"INSERT INTO {path.stem} VALUES ({', '.join('?' * len(header))})",
                         [[_typed(v) for v in row] for row in body])
    return conn


def run(query_file, data_dir="data"):
    conn = load(data_dir)
    return conn.execute(Path(query_file).read_text()).fetchall()


if __name__ == "__main__":
    for row in run(sys.argv[1]):
        print("|".join(str(v) for v in row))
