from eventbus import EventBus

bus = EventBus()
seen = []
ta = bus.subscribe("t", lambda ev: seen.append("a"))
tb = bus.subscribe("t", lambda ev: seen.append("b"))
assert bus.unsubscribe(ta) is True
assert bus.unsubscribe(ta) is False
assert bus.unsubscribe(12345) is False
assert bus.publish("t") == 1 and seen == ["b"], seen

seen.clear()
bus = EventBus()
tokens = {}
def first(ev):
    seen.append("first")
    bus.unsubscribe(tokens["second"])
    bus.subscribe("t", lambda ev: seen.append("late"))
tokens["first"] = bus.subscribe("t", first, priority=1)
tokens["second"] = bus.subscribe("t", lambda ev: seen.append("second"))
assert bus.publish("t") == 2, "handlers are fixed when publish starts"
assert seen == ["first", "second"], seen
seen.clear()
bus.unsubscribe(tokens["first"])
assert bus.publish("t") == 1 and seen == ["late"], seen
print("ok")
