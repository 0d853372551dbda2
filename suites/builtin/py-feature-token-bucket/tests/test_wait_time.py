from throttle.bucket import TokenBucket
from throttle.clock import FakeClock

def close(a, b):
    return abs(a - b) < 1e-9

clock = FakeClock(5)
b = TokenBucket(rate=4, capacity=8, clock=clock)
assert b.wait_time() == 0.0 and b.wait_time(8) == 0.0
assert b.allow(8)
assert close(b.wait_time(), 0.25), b.wait_time()
assert close(b.wait_time(8), 2.0), b.wait_time(8)
assert b.tokens == 0.0, "wait_time must not consume or add tokens"
clock.advance(0.5)
assert close(b.wait_time(3), 0.25), b.wait_time(3)
clock.advance(0.25)
assert b.wait_time(3) == 0.0 and b.allow(3)
print("ok")
