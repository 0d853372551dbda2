from textdiff import edit_distance

assert edit_distance("", "") == 0
assert edit_distance("", "abc") == 3
assert edit_distance("ab", "") == 2
print("ok")
