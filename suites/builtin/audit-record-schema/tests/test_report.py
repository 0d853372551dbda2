import json

from validate import validate

got = validate(json.load(open("data/users.json")))
expected = [(2, "bad_email"), (3, "bad_age"), (3, "missing:email"), (4, "bad_age"), (4, "bad_tags"),
            (5, "duplicate_tags"), (5, "unknown_field:nickname"), (6, "bad_age")]
assert got == expected, got
print("ok")
