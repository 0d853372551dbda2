from scores.parse import Entry
from scores.ranking import rank
from scores.render import render

got = [(r, e.name) for r, e in rank([Entry("a", 5), Entry("b", 5), Entry("c", 5), Entry("d", 1)])]
assert got == [(1, "a"), (1, "b"), (1, "c"), (4, "d")], got
out = render("dave,30\nbob,40\ncarol,50\nalice,40\n")
expected = "1. carol 50\n2. alice 40\n2. bob 40\n4. dave 30\n"
assert out == expected, f"got:\n{out}\nexpected:\n{expected}"
print("ok")
