"""Apply migrations/*.sql in name order to a SQLite database file."""
import sqlite3
import sys
from pathlib import Path


def migrate(db, folder="migrations"):
    conn = sqlite3.connect(db)
    for path in sorted(Path(folder).glob("*.sql")):
        conn.executescript(path.read_text())
    conn.commit()
    return conn


if __name__ == "__main__":
    migrate(sys.argv[1])
