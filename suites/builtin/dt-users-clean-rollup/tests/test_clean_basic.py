import os, subprocess, sys, tempfile

src_text = ("id,email,name,updated_at,plan\n"
            "1,A@X.org, Ann ,2024-01-01 00:00:00,PRO\n"
            "2,b@y.net,Ben,2024-01-01 00:00:00,\n"
            "3,c@z.com,Cy,2024-01-01 00:00:00,team\n")
expected = "id,email,name,plan\n1,a@x.org,Ann,pro\n2,b@y.net,Ben,free\n3,c@z.com,Cy,team\n"
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
