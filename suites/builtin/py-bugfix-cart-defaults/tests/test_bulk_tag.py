from shop import Cart

a = Cart("alice")
a.add("paper", 10, price=100)
small = a.add("pen", 1, price=100)
assert "bulk" not in small.tags, f"small line got tags {small.tags}"
assert a.total() == 900 + 100, f"total {a.total()} != 1000"

b = Cart("bob")
line = b.add("pen", 3, price=100)
assert line.tags == set(), f"line in new cart got tags {line.tags}"
assert b.total() == 300, b.total()

mine = {"gift"}
big = b.add("card", 12, price=50, tags=mine)
assert mine == {"gift"}, f"caller's tags were mutated: {mine}"
assert big.tags == {"gift", "bulk"}, big.tags
print("ok")
