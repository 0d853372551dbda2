from loader import load_file

assert load_file("exports/2024-01-a.v1.csv") == [{"id": 1, "name": "Ada Lovelace", "signup": "2024-01-05"},
                                                 {"id": 2, "name": "Grace Hopper", "signup": "2024-01-09"}]
print("ok")
