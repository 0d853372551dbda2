import hashlib, os, subprocess, sys

EXPECTED_SHA256 = "7e49ed09106101c390b83e12933ebf3b48c285d19887bed8e4f76665bf6fc0f8"

def digest():
    with open("input/orders.json", "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()

assert digest() == EXPECTED_SHA256, "input/orders.json differs from the original"
if os.path.exists("flatten.py"):
    subprocess.run([sys.executable, "flatten.py"], capture_output=True, timeout=15)
    assert digest() == EXPECTED_SHA256, "flatten.py modified input/orders.json"
print("ok")
