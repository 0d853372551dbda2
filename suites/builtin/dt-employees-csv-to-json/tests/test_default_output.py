import json, os, subprocess, sys

if os.path.exists("out/departments.json"):
    os.remove("out/departments.json")
r = subprocess.run([sys.executable, "to_json.py"], capture_output=True, text=True)
assert r.returncode == 0, f"to_json.py failed ({r.returncode}):\n{r.stderr}"
assert os.path.exists("out/departments.json"), "out/departments.json was not created"
with open("out/departments.json", encoding="utf-8") as f:
    data = json.load(f)
deps = data["departments"]
assert [d["name"] for d in deps] == ["Engineering", "Research", "Sales"], [d["name"] for d in deps]
eng = deps[0]
assert eng["headcount"] == 3 and eng["total_salary"] == 359500, (eng["headcount"], eng["total_salary"])
assert [e["id"] for e in eng["employees"]] == [2, 5, 7], [e["id"] for e in eng["employees"]]
assert eng["employees"][0] == {"id": 2, "name": "Ada Lovelace", "salary": 128500, "start_date": "2018-07-15"}, eng["employees"][0]
sales = deps[2]
assert [e["name"] for e in sales["employees"]] == ["Søren Kierkegaard", "Margaret Hamilton"], sales
assert sales["total_salary"] == 139000, sales["total_salary"]
research = deps[1]
assert [e["id"] for e in research["employees"]] == [10, 12], "employees must be sorted by id numerically"
print("ok")
