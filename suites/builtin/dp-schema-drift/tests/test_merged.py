import os
import tempfile

from loader import load_all

got = load_all("exports")
assert [u["id"] for u in got] == [1, 2, 3, 4], got
d = tempfile.mkdtemp()
open(os.path.join(d, "a.v2.csv"), "w").write("user_id;name;signup_date\n7;Old Name;01/02/2023\n")
open(os.path.join(d, "b.v1.csv"), "w").write("id,full_name,signup\n7,New Name,2023-03-01\n")
open(os.path.join(d, "notes.txt"), "w").write("not an export\n")
assert load_all(d) == [{"id": 7, "name": "New Name", "signup": "2023-03-01"}], load_all(d)
print("ok")
