from versions.semver import Version

v = Version.parse("1.2.3-rc.1+b.007")
assert (v.major, v.minor, v.patch) == (1, 2, 3), (v.major, v.minor, v.patch)
assert v.prerelease == ("rc", 1), v.prerelease
assert v.build == ("b", "007"), v.build
assert type(v.prerelease[1]) is int
for text in ["0.0.0", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.beta.1", "1.0.0-0A.is.legal",
             "1.0.0-x-y-z.--", "1.0.0+20130313144700", "1.0.0-beta+exp.sha.5114f85", "1.2.3-0"]:
    got = str(Version.parse(text))
    assert got == text, f"str(parse({text!r})) -> {got!r}"
assert Version.parse("1.0.0-x.7.z.92").prerelease == ("x", 7, "z", 92)
for bad in ["1", "1.2", "1.2.3.4", "01.2.3", "1.02.3", "1.2.03", "1.2.3-", "1.2.3+", "1.2.3-01",
            "1.2.3-a..b", "1.2.3-a_b", "v1.2.3", " 1.2.3", "1.2.3 ", "a.b.c", "-1.2.3", "1.2.3+b..c", ""]:
    try:
        Version.parse(bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"parse({bad!r}) should raise ValueError")
print("ok")
