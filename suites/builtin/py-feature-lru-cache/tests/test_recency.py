from cachelib import LRUCache

c = LRUCache(3)
for k in "abc":
    c.put(k, k.upper())
assert c.keys() == ["a", "b", "c"], c.keys()
assert c.get("a") == "A"
assert c.keys() == ["b", "c", "a"], f"get must refresh recency: {c.keys()}"
assert "b" in c
assert c.keys() == ["b", "c", "a"], f"'in' must not refresh recency: {c.keys()}"
c.put("c", "C2")
assert c.keys() == ["b", "a", "c"], f"put on an existing key must refresh recency: {c.keys()}"
c.get("zzz")
assert c.put("d", "D") == "b", "least recently used 'b' should be evicted"
assert c.keys() == ["a", "c", "d"], c.keys()
assert c.get("c") == "C2"

big = LRUCache(100)
for i in range(1000):
    big.put(i, i * i)
    if i % 3 == 0:
        big.get(i // 2)
assert len(big) == 100
assert big.keys()[-1] == 999 and big.get(999) == 998001
print("ok")
