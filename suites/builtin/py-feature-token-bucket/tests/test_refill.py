from throttle.bucket import TokenBucket
from throttle.clock import FakeClock

clock = FakeClock()
b = TokenBucket(rate=2, capacity=4, clock=clock)
for _ in range(4):
    assert b.allow()
assert not b.allow()
clock.advance(0.25)
assert b.tokens == 0.5, b.tokens
assert not b.allow()
clock.advance(0.25)
assert b.allow(), "after 0.5 s at 2 tokens/s one token must be available"
assert not b.allow()
clock.advance(100)
assert b.tokens == 4.0, f"refill must be capped at capacity: {b.tokens}"
assert [b.allow() for _ in range(5)] == [True] * 4 + [False]

slow = TokenBucket(rate=0.5, capacity=1.5, clock=clock)
assert slow.allow(1.5)
clock.advance(1)
assert slow.tokens == 0.5 and not slow.allow()
clock.advance(1)
assert slow.allow(1) and slow.tokens == 0.0, slow.tokens
print("ok")
