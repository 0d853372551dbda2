from validate import validate

got = validate([{"id": 9, "email": "a@b@c.d", "age": True, "tags": [1]}, {"id": 8}, {"id": 7, "email": "x@y.z", "age": 150, "tags": []}])
expected = [(8, "missing:age"), (8, "missing:email"), (8, "missing:tags"), (9, "bad_age"), (9, "bad_email"), (9, "bad_tags")]
assert got == expected, got
assert validate([]) == []
print("ok")
