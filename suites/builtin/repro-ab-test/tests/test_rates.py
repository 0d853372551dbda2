from abtest import analyse

got = analyse()
assert (got["rate_a"], got["rate_b"]) == (0.0939, 0.1417), got
print("ok")
