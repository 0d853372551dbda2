from throttle.clock import FakeClock

c = FakeClock(10)
assert c() == 10.0
c.advance(2.5)
assert c() == 12.5
try:
    c.advance(-1)
except ValueError:
    pass
else:
    raise AssertionError("negative advance must raise")
print("ok")
