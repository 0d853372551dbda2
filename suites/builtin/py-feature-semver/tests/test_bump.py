from versions.semver import Version

for text, part, expected in [("1.2.3", "patch", "1.2.4"), ("1.2.3", "minor", "1.3.0"), ("1.2.3", "major", "2.0.0"),
                             ("1.2.3-rc.1+b5", "patch", "1.2.3"), ("1.2.3-rc.1", "minor", "1.3.0"),
                             ("0.9.9+meta", "patch", "0.9.10"), ("1.9.0-alpha", "major", "2.0.0")]:
    v = Version.parse(text)
    got = v.bump(part)
    assert isinstance(got, Version) and str(got) == expected, f"{text}.bump({part!r}) -> {got!r}, expected {expected}"
    assert str(v) == text, "bump must not modify the original"
try:
    Version.parse("1.0.0").bump("build")
except ValueError:
    pass
else:
    raise AssertionError("bump('build') should raise ValueError")
print("ok")
