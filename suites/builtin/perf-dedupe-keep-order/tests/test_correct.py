from dedupe import unique_in_order

assert unique_in_order([]) == []
assert unique_in_order([3, 1, 3, 2, 1]) == [3, 1, 2]
assert unique_in_order(["b", "a", "b"]) == ["b", "a"]
assert unique_in_order([1, 1.0, 2]) == [1, 2]
items = [2, 2, 1]
assert unique_in_order(items) is not items and items == [2, 2, 1]
print("ok")
