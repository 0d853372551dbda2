from throttle.bucket import TokenBucket
from throttle.clock import FakeClock

for rate, cap in [(0, 5), (-1, 5), (1, 0), (1, -2), ("1", 5), (1, None)]:
    try:
        TokenBucket(rate, cap, clock=FakeClock())
    except ValueError:
        pass
    except Exception as e:
        raise AssertionError(f"TokenBucket({rate!r}, {cap!r}) raised {type(e).__name__}, expected ValueError")
    else:
        raise AssertionError(f"TokenBucket({rate!r}, {cap!r}) should raise ValueError")
b = TokenBucket(1, 3, clock=FakeClock())
for cost in [0, -1, 4]:
    for method in (b.allow, b.wait_time):
        try:
            method(cost)
        except ValueError:
            pass
        else:
            raise AssertionError(f"{method.__name__}({cost}) should raise ValueError")
assert b.tokens == 3.0
real = TokenBucket(1000, 2)
assert real.allow() and real.allow(1)
print("ok")
