from eventbus import EventBus, PublishError

bus = EventBus()
ran = []
def boom(ev):
    ran.append("boom")
    raise RuntimeError("boom")
def ok(ev):
    ran.append("ok")
def bad_key(ev):
    ran.append("bad_key")
    raise KeyError("k")
t1 = bus.subscribe("jobs.#", boom, priority=2)
t2 = bus.subscribe("jobs.*", ok, priority=1)
t3 = bus.subscribe("#", bad_key)
try:
    bus.publish("jobs.done")
except PublishError as e:
    assert ran == ["boom", "ok", "bad_key"], f"all handlers must run: {ran}"
    assert [tok for tok, _ in e.errors] == [t1, t3], e.errors
    assert isinstance(e.errors[0][1], RuntimeError) and isinstance(e.errors[1][1], KeyError), e.errors
else:
    raise AssertionError("publish must raise PublishError when a handler fails")
ran.clear()
bus.unsubscribe(t1)
bus.unsubscribe(t3)
assert bus.publish("jobs.done") == 1 and ran == ["ok"]
print("ok")
