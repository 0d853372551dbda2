from loader import load_file

assert load_file("exports/2024-01-b.v2.csv") == [{"id": 3, "name": "Linus Torvalds", "signup": "2024-01-10"},
                                                 {"id": 2, "name": "Grace Hopper", "signup": "2024-01-09"}]
print("ok")
