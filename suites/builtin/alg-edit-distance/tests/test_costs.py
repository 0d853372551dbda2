from textdiff import edit_distance

assert edit_distance("a", "b", sub_cost=2) == 2
assert edit_distance("kitten", "sitting", sub_cost=2) == 5
assert edit_distance("abc", "abd", sub_cost=1) == 1
print("ok")
