from check import report
assert report()["duplicate_order_ids"] == ["o2"], report()
print("ok")
