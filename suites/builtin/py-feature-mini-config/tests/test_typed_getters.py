from miniconf import get_bool, get_int, parse

conf = parse("[s]\nport = 8080\nneg = -3\nname = x\ndebug = Yes\nquiet = OFF\none = 1\nzero = 0\nmaybe = sometimes\n")
assert get_int(conf, "s", "port") == 8080
assert get_int(conf, "s", "neg") == -3
assert get_int(conf, "s", "missing", 5) == 5
assert get_int(conf, "nosection", "port") is None
try:
    get_int(conf, "s", "name")
except ValueError:
    pass
else:
    raise AssertionError("get_int on 'x' should raise ValueError")
assert get_bool(conf, "s", "debug") is True
assert get_bool(conf, "s", "quiet") is False
assert get_bool(conf, "s", "one") is True and get_bool(conf, "s", "zero") is False
assert get_bool(conf, "s", "missing", True) is True
assert get_bool(conf, "other", "debug") is None
try:
    get_bool(conf, "s", "maybe")
except ValueError:
    pass
else:
    raise AssertionError("get_bool on 'sometimes' should raise ValueError")
print("ok")
