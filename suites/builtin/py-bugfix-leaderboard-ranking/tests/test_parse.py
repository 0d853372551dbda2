from scores.parse import Entry, parse

got = parse("# header\nalice, 40\n\n  bob,7  \nx,y,12\n")
assert got == [Entry("alice", 40), Entry("bob", 7), Entry("x,y", 12)], got
try:
    parse("alice,40\nbroken\n")
except ValueError as e:
    assert "line 2" in str(e), e
else:
    raise AssertionError("expected ValueError for a line without a score")
print("ok")
