import os
import tempfile

from migrate import migrate

conn = migrate(os.path.join(tempfile.mkdtemp(), "t.db"))
conn.execute("INSERT INTO logins (user_id, at) VALUES (3, '2024-04-01T00:00:00')")
conn.execute("INSERT INTO logins (user_id, at) VALUES (1, '2024-01-01T00:00:00')")
conn.execute("INSERT INTO logins (user_id, at) VALUES (2, '2024-03-01T00:00:00')")
got = conn.execute("SELECT id, last_login FROM users ORDER BY id").fetchall()
assert got == [(1, "2024-03-05T08:30:00"), (2, "2024-03-01T00:00:00"), (3, "2024-04-01T00:00:00")], got
print("ok")
