import os, subprocess, sys, tempfile

src_text = ("id,email,name,updated_at,plan\n"
            "10,old@x.org,Old Ten,2024-01-01 00:00:00,free\n"
            "2,two@x.org,Two,2024-01-01 00:00:00,free\n"
            "10,new@x.org,New Ten,2024-05-01 00:00:00,pro\n"
            "10,mid@x.org,Mid Ten,2024-03-01 00:00:00,team\n"
            "009,first@x.org,Nine A,2024-02-02 02:02:02,free\n"
            " 9 ,second@x.org,Nine B,2024-02-02 02:02:02,pro\n"
            "100,h@x.org,Hundred,2020-01-01 00:00:00,free\n")
expected = ("id,email,name,plan\n"
            "2,two@x.org,Two,free\n"
            "9,second@x.org,Nine B,pro\n"
            "10,new@x.org,New Ten,pro\n"
            "100,h@x.org,Hundred,free\n")
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
    with open(src, "w") as f:
        f.write(src_text)
    r = subprocess.run([sys.executable, "clean.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"clean.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, newline="") as f:
        got = f.read()
assert got == expected, f"expected:\n{expected}\ngot:\n{got}"
print("ok")
