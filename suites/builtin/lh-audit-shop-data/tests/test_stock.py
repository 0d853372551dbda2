from check import report
r = report()
assert r["negative_stock"] == ["STAPLER"], r
assert r["oversold"] == ["NB-A5", "STAPLER"], r
print("ok")
