from cachelib import LRUCache

for bad in [0, -1, 2.5, "3", None]:
    try:
        LRUCache(bad)
    except ValueError:
        pass
    except Exception as e:
        raise AssertionError(f"LRUCache({bad!r}) raised {type(e).__name__}, expected ValueError")
    else:
        raise AssertionError(f"LRUCache({bad!r}) should raise ValueError")
c = LRUCache(1)
assert len(c) == 0 and c.keys() == [] and "x" not in c
c.put(None, 0)
assert None in c and c.get(None, 5) == 0, "None is a valid key and 0 a valid value"
print("ok")
