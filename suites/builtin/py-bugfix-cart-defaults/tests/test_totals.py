from shop import Cart

c = Cart("alice")
c.add("pen", 2, price=150)
c.add("book", price=1299)
assert c.total() == 2 * 150 + 1299, c.total()
c.add("paper", 10, price=100, tags={"office"})
assert c.total() == 300 + 1299 + 900, c.total()
assert c.lines[-1].tags >= {"bulk", "office"}, c.lines[-1].tags
try:
    c.add("x", 0, price=1)
except ValueError:
    pass
else:
    raise AssertionError("qty 0 must raise ValueError")
print("ok")
