from cachelib.stats import hit_ratio

assert hit_ratio(0, 0) == 0.0
assert hit_ratio(1, 2) == 0.333, hit_ratio(1, 2)
assert hit_ratio(5, 0) == 1.0
print("ok")
