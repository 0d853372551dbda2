from throttle.bucket import TokenBucket
from throttle.clock import FakeClock

clock = FakeClock(100.0)
b = TokenBucket(rate=1, capacity=5, clock=clock)
assert b.tokens == 5.0, f"bucket must start full, tokens={b.tokens}"
results = [b.allow() for _ in range(7)]
assert results == [True] * 5 + [False] * 2, f"burst of 7 at once: {results}"
assert b.tokens == 0.0, b.tokens
b2 = TokenBucket(rate=10, capacity=4, clock=clock)
assert b2.allow(3) is True
assert b2.allow(2) is False, "only 1 token left"
assert b2.tokens == 1.0, f"a failed allow must not consume tokens: {b2.tokens}"
assert b2.allow(1) is True
print("ok")
