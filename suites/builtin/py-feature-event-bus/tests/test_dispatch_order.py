from eventbus import Event, EventBus

bus = EventBus()
calls = []
def make(name):
    return lambda ev: calls.append((name, ev))
t1 = bus.subscribe("orders.*", make("low"))
t2 = bus.subscribe("orders.#", make("high"), priority=10)
t3 = bus.subscribe("#", make("all"))
t4 = bus.subscribe("orders.created", make("mid"), priority=5)
t5 = bus.subscribe("users.*", make("users"), priority=100)
assert len({t1, t2, t3, t4, t5}) == 5, "tokens must be distinct"
n = bus.publish("orders.created", {"id": 1})
assert [c[0] for c in calls] == ["high", "mid", "low", "all"], [c[0] for c in calls]
assert n == 4, n
assert all(ev == Event("orders.created", {"id": 1}) for _, ev in calls), calls
calls.clear()
assert bus.publish("billing") == 1 and [c[0] for c in calls] == ["all"]
assert calls[0][1] == Event("billing", None)
h = make("dup")
calls.clear()
bus2 = EventBus()
assert bus2.subscribe("x", h) != bus2.subscribe("x", h)
assert bus2.publish("x") == 2 and len(calls) == 2, "same handler subscribed twice runs twice"
assert bus2.publish("y") == 0
try:
    bus2.subscribe("a..b", h)
except ValueError:
    pass
else:
    raise AssertionError("invalid pattern must raise ValueError")
try:
    bus2.publish("")
except ValueError:
    pass
else:
    raise AssertionError("invalid topic must raise ValueError")
print("ok")
