import os, subprocess, sys, tempfile

src_text = ('name,email,phone,joined\n'
            '"Doe, Jane",Jane.Doe@Example.com,555.010.0199,3/7/2024\n'
            '\n'
            '"O\'Brien, ""Mac""", MAC@obrien.ie ,"555-0000, ext 12",10/10/2020\n'
            '  Plain Name  ,p@p.io,1,10/11/2021\n')
expected = ('name,email,phone,joined\n'
            '"Doe, Jane",jane.doe@example.com,5550100199,2024-03-07\n'
            '"O\'Brien, ""Mac""",mac@obrien.ie,555000012,2020-10-10\n'
            'Plain Name,p@p.io,1,2021-10-11\n')
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
