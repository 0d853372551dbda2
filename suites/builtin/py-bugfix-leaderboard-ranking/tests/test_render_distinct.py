from scores.render import render

out = render("bob,12\nalice,9\ncarol,100\n")
expected = "1. carol 100\n2. bob 12\n3. alice 9\n"
assert out == expected, f"got:\n{out}\nexpected:\n{expected}"
assert render("") == ""
print("ok")
