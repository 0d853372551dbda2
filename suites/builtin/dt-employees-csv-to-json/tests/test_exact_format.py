import os, subprocess, sys, tempfile

src_text = "id,name,department,salary,start_date\n 2 , Zoë ,QA, 500 ,2024-01-01\n1,Al,QA,700,2023-12-31\n\n"
expected = """{
  "departments": [
    {
      "name": "QA",
      "headcount": 2,
      "total_salary": 1200,
      "employees": [
        {
          "id": 1,
          "name": "Al",
          "salary": 700,
          "start_date": "2023-12-31"
        },
        {
          "id": 2,
          "name": "Zoë",
          "salary": 500,
          "start_date": "2024-01-01"
        }
      ]
    }
  ]
}
"""
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "e.csv")
    dst = os.path.join(tmp, "e.json")
    with open(src, "w", encoding="utf-8") as f:
        f.write(src_text)
    r = subprocess.run([sys.executable, "to_json.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"to_json.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst, "rb") as f:
        got = f.read().decode("utf-8")
if got != expected:
    print("expected:\n" + expected + "\ngot:\n" + got)
    raise SystemExit(1)
print("ok")
