from eventbus.patterns import matches, validate

table = [
    ("orders.*", "orders.created", True), ("orders.*", "orders", False),
    ("orders.*", "orders.eu.created", False), ("orders.#", "orders", True),
    ("orders.#", "orders.created", True), ("orders.#", "orders.eu.created", True),
    ("#", "anything.at.all", True), ("#", "x", True), ("a.#.z", "a.z", True),
    ("a.#.z", "a.b.c.z", True), ("a.#.z", "a.b.c", False), ("*.created", "orders.created", True),
    ("*.created", "created", False), ("Orders.*", "orders.created", False),
    ("#.end", "end", True), ("#.end", "a.b.end", True), ("#.end", "a.end.x", False),
    ("*.#.*", "a", False), ("*.#.*", "a.b", True), ("a.#.#.b", "a.b", True),
    ("a.*.#", "a.x.y.z", True), ("exact.topic", "exact.topic", True), ("exact.topic", "exact", False),
]
for pattern, topic, expected in table:
    got = matches(pattern, topic)
    assert got is expected, f"matches({pattern!r}, {topic!r}) -> {got}, expected {expected}"
for bad in ["", "a..b", ".a", "a."]:
    for call in (lambda: validate(bad), lambda: matches(bad, "a"), lambda: matches("#", bad)):
        try:
            call()
        except ValueError:
            pass
        else:
            raise AssertionError(f"{bad!r} must be rejected with ValueError")
validate("a.b.c")
print("ok")
