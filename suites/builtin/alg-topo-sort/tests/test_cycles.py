from graphs import toposort

for g in ({"a": ["b"], "b": ["a"]}, {"a": ["a"]}, {"a": ["b"], "b": ["c"], "c": ["a"], "d": []}):
    try:
        toposort(g)
    except ValueError:
        continue
    raise AssertionError(f"no ValueError for cyclic {g}")
print("ok")
