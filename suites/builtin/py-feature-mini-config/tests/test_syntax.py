from miniconf import parse

text = """# comment
; another comment
   [app]
  Name   =   My App
url = http://host:8080/path?a=b
ratio: 3:4
Empty =
key = first
KEY = second
    # indented comment
"""
got = parse(text)
expected = {"app": {"name": "My App", "url": "http://host:8080/path?a=b", "ratio": "3:4",
                    "empty": "", "key": "second"}}
assert got == expected, f"parse -> {got}\nexpected {expected}"
print("ok")
