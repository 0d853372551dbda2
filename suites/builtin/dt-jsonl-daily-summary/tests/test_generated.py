import json, os, random, subprocess, sys, tempfile

rng = random.Random(99)
lines, days, users = [], {}, {}
good = bad = 0
for i in range(500):
    if i % 37 == 0:
        lines.append('{"broken": ')
        bad += 1
        continue
    day = f"2024-02-{rng.randint(1, 5):02d}"
    ev = {"user": f"u{rng.randint(1, 12)}", "type": rng.choice(["view", "click", "buy"]),
          "ts": f"{day}T{rng.randint(0, 23):02d}:00:00Z"}
    lines.append(json.dumps(ev))
    good += 1
    days.setdefault(day, {}).setdefault(ev["type"], 0)
    days[day][ev["type"]] += 1
    users.setdefault(day, set()).add(ev["user"])
expected = {"days": days, "unique_users": {d: len(u) for d, u in users.items()},
            "total_events": good, "skipped": bad}
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "e.jsonl"), os.path.join(tmp, "s.json")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, "aggregate.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"aggregate.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst) as f:
        text = f.read()
got = json.loads(text)
assert got == expected, f"expected {json.dumps(expected)[:400]}\ngot      {json.dumps(got)[:400]}"
assert text == json.dumps(expected, indent=2, sort_keys=True) + "\n", "formatting must be indent=2, sort_keys=True + newline"
print("ok")
