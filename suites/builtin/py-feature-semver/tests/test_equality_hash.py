from versions.semver import Version

a, b = Version.parse("1.0.0+build.1"), Version.parse("1.0.0+build.2")
assert a == b and not (a != b) and not (a < b) and a <= b, "build metadata must be ignored"
assert hash(a) == hash(b)
assert len({Version.parse("2.0.0"), Version.parse("2.0.0+x"), Version.parse("2.0.0-rc")}) == 2
assert Version.parse("1.0.0") != Version.parse("1.0.0-0")
assert (Version.parse("1.0.0") == "1.0.0") is False
assert Version.parse("1.0.0").__eq__("1.0.0") is NotImplemented
try:
    Version.parse("1.0.0") < "2.0.0"
except TypeError:
    pass
else:
    raise AssertionError("comparing with a str must raise TypeError")
assert Version(1, 2, 3, ("rc", 1)) == Version.parse("1.2.3-rc.1")
print("ok")
