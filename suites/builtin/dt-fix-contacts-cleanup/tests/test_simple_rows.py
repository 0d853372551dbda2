import os, subprocess, sys, tempfile

src_text = "name,email,phone,joined\nBob Stone, BOB@X.COM ,(555) 123-4567,12/12/2023\nEve,eve@e.org,555 999,10/10/2020\n"
expected = "name,email,phone,joined\nBob Stone,bob@x.com,5551234567,2023-12-12\nEve,eve@e.org,555999,2020-10-10\n"
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
    with open(src, "w") as f:
        f.write(src_text)
    r = subprocess.run([sys.executable, "normalize.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"normalize.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, newline="") as f:
        got = f.read()
assert got == expected, f"expected:\n{expected}\ngot:\n{got}"
print("ok")
