import random
from versions.semver import Version

chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
         "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0-0", "1.1.0", "1.9.0", "1.10.0", "2.0.0"]
versions = [Version.parse(t) for t in chain]
for a, b in zip(versions, versions[1:]):
    assert a < b, f"{a} should be < {b}"
    assert b > a and a <= b and b >= a and a != b, f"{a} vs {b}"
shuffled = versions[:]
random.Random(3).shuffle(shuffled)
got = [str(v) for v in sorted(shuffled)]
assert got == chain, f"sorted -> {got}"
assert Version.parse("1.0.0-2") < Version.parse("1.0.0-10"), "numeric identifiers compare numerically"
assert Version.parse("1.0.0-999") < Version.parse("1.0.0-a"), "numeric < alphanumeric"
assert Version.parse("1.0.0-B") < Version.parse("1.0.0-a"), "ASCII order"
assert max(Version.parse(t) for t in ["0.9.9", "0.10.0", "0.10.0-rc.2"]) == Version.parse("0.10.0")
print("ok")
