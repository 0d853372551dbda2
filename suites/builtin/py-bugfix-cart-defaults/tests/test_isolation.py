from shop import Cart

a = Cart("alice")
a.add("pen", 1, price=100)
b = Cart("bob")
assert b.lines == [], f"new cart is not empty: {b.lines}"
assert b.total() == 0, b.total()
b.add("ink", 1, price=50)
assert [l.sku for l in a.lines] == ["pen"], [l.sku for l in a.lines]

seed = []
c = Cart("carol", items=seed)
c.add("mug", 1, price=700)
assert seed == [], f"caller's list was mutated: {seed}"
print("ok")
