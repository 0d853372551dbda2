import os
import tempfile

from migrate import migrate

conn = migrate(os.path.join(tempfile.mkdtemp(), "t.db"))
assert conn.execute("SELECT COUNT(*) FROM users").fetchone() == (3,)
print("ok")
