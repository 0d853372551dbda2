import json, os, subprocess, sys, tempfile

src_text = ("id,email,name,plan\n1,a@x.org,A,pro\n2,b@y.net,B,free\n3,c@x.org,C,pro\n"
            "4,d@x.org,D,team\n5,e@z.io,E,free\n")
expected = {"by_domain": {"x.org": 3, "y.net": 1, "z.io": 1}, "by_plan": {"free": 2, "pro": 2, "team": 1}, "total": 5}
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.json")
    with open(src, "w") as f:
        f.write(src_text)
    r = subprocess.run([sys.executable, "rollup.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"rollup.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst) as f:
        text = f.read()
assert json.loads(text) == expected, f"expected {expected}\ngot {text}"
assert text == json.dumps(expected, indent=2, sort_keys=True) + "\n", f"bad formatting:\n{text}"
print("ok")
