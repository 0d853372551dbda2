from check import report
assert report()["price_mismatch"] == ["o4"], report()
print("ok")
