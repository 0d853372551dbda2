from eventbus.events import Event

assert str(Event("a.b")) == "<a.b>"
assert str(Event("a.b", {"x": 1})) == "<a.b {'x': 1}>"
assert Event("t", 1) == Event("t", 1)
print("ok")
