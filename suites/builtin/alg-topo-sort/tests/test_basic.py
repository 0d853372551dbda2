from graphs import toposort

assert toposort({"b": ["a"], "a": []}) == ["a", "b"]
assert toposort({}) == []
assert toposort({"app": ["lib", "lib"], "lib": ["core"]}) == ["core", "lib", "app"]
g = {"x": ["y"]}
toposort(g)
assert g == {"x": ["y"]}, "graph was modified"
print("ok")
