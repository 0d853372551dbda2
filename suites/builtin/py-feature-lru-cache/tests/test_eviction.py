from cachelib import LRUCache

c = LRUCache(2)
assert c.put("a", 1) is None
assert c.put("b", 2) is None
assert len(c) == 2
evicted = c.put("c", 3)
assert evicted == "a", f"put('c') evicted {evicted!r}, expected 'a'"
assert "a" not in c and c.get("a") is None and c.get("a", "missing") == "missing"
assert c.get("b") == 2 and c.get("c") == 3
assert len(c) == 2, len(c)

one = LRUCache(1)
one.put("x", 1)
assert one.put("x", 2) is None, "updating an existing key must not evict"
assert one.put("y", 3) == "x"
assert one.keys() == ["y"], one.keys()
print("ok")
