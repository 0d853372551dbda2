from check import report
assert report()["unknown_sku"] == ["o3", "o6"], report()
print("ok")
