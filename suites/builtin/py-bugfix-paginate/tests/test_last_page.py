from pager import paginate

items = list(range(1, 11))
p = paginate(items, 3, 4)
assert p.items == [9, 10], f"last page items {p.items}"
assert p.total_pages == 3 and p.has_prev and not p.has_next, p
p = paginate(items, 2, 4)
assert p.items == [5, 6, 7, 8] and p.has_next, p
e = paginate([], 1, 5)
assert e.items == [] and e.total_pages == 1 and not e.has_next and not e.has_prev, e
try:
    paginate(items, 4, 4)
except ValueError:
    pass
else:
    raise AssertionError("page 4 of 3 should raise ValueError")
print("ok")
