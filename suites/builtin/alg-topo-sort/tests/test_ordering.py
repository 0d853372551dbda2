from graphs import toposort

assert toposort({"b": [], "a": []}) == ["a", "b"]
assert toposort({"d": ["b", "c"], "c": ["a"], "b": ["a"], "e": []}) == ["a", "b", "c", "d", "e"]
assert toposort({"z": [], "m": ["z"], "a": ["m"]}) == ["z", "m", "a"]
print("ok")
