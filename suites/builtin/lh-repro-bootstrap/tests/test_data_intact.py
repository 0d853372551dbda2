import hashlib

digest = hashlib.sha256(open("data/scores.csv", "rb").read()).hexdigest()
assert digest == "a6bc24bb8b85bb226b3a03b7826059618cbc969355d2938343d10452d9900f8a", "data/scores.csv was changed"
print("ok")
