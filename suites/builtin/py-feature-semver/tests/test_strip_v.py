from versions.util import strip_v

assert strip_v(" v1.2.3 ") == "1.2.3"
assert strip_v("V0.1.0") == "0.1.0"
assert strip_v("2.0.0") == "2.0.0"
print("ok")
