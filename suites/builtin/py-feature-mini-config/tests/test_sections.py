from miniconf import parse

text = """
name = top-level
[server]
host = example.org
[ db ]
user = admin
[server]
port = 8080
[empty]
[Server]
host = other
"""
got = parse(text)
expected = {"global": {"name": "top-level"}, "server": {"host": "example.org", "port": "8080"},
            "db": {"user": "admin"}, "empty": {}, "Server": {"host": "other"}}
assert got == expected, f"parse -> {got}\nexpected {expected}"
assert list(got) == ["global", "server", "db", "empty", "Server"], f"section order {list(got)}"
assert parse("[a]\nx=1\n") == {"a": {"x": "1"}}, "no 'global' section without top-level keys"
assert parse("") == {}
print("ok")
