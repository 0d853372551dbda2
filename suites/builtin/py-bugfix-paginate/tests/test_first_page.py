from pager import paginate

p = paginate(list(range(10)), 1, 4)
assert p.items == [0, 1, 2, 3], p.items
assert p.page == 1
assert not p.has_prev and p.has_next, (p.has_prev, p.has_next)
p = paginate("abcdefgh", 2, 4)
assert p.items == list("efgh"), p.items
assert p.has_prev and p.total_pages == 2 and not p.has_next, p
print("ok")
