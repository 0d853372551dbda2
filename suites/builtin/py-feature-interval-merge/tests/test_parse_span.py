from spans.intervals import parse_span

assert parse_span("3-7") == (3, 7)
assert parse_span(" 5 ") == (5, 5)
assert parse_span("-4--2") == (-4, -2)
try:
    parse_span("9-1")
except ValueError:
    pass
else:
    raise AssertionError("parse_span('9-1') should raise ValueError")
print("ok")
