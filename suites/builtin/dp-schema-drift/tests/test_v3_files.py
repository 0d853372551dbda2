from loader import load_file

got = load_file("exports/2024-01-c.v3.json")
assert got == [{"id": 4, "name": "Barbara Liskov", "signup": "2024-01-12"},
               {"id": 1, "name": "Ada Lovelace", "signup": "2024-01-05"}], got
print("ok")
