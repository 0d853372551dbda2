import os
import tempfile

from migrate import migrate

conn = migrate(os.path.join(tempfile.mkdtemp(), "t.db"))
cols = [r[1] for r in conn.execute("PRAGMA table_info(users)")]
assert "last_login" in cols, cols
got = conn.execute("SELECT id, last_login FROM users ORDER BY id").fetchall()
assert got == [(1, "2024-03-05T08:30:00"), (2, "2024-02-28T23:59:59"), (3, None)], got
idx = [r[1] for r in conn.execute("PRAGMA index_list(logins)")]
assert "idx_logins_user_at" in idx, idx
print("ok")
