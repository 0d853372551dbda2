import json, os, subprocess, sys, tempfile

lines = [
    '{"ts": "2024-01-01T00:00:00Z", "type": "a", "user": "x"}',
    '   ',
    'not json',
    '[1, 2, 3]',
    '"just a string"',
    '{"ts": "2024-01-01T00:00:00Z", "type": "a"}',
    '{"ts": "2024-01-01T00:00:00Z", "type": "a", "user": 7}',
    '{"ts": 20240101, "type": "a", "user": "x"}',
    '{"ts": "Jan 1 2024", "type": "a", "user": "x"}',
    '{"ts": "2024-01-0", "type": "a", "user": "x"}',
    '{"ts": "2024-01-02", "type": "b", "user": "y", "extra": null}',
    '',
    '{"ts": "2024-01-01T09:00:00+09:00", "type": "a", "user": "y"}',
]
with tempfile.TemporaryDirectory() as tmp:
    src, dst = os.path.join(tmp, "e.jsonl"), os.path.join(tmp, "s.json")
    with open(src, "w") as f:
        f.write("\n".join(lines))
    r = subprocess.run([sys.executable, "aggregate.py", src, dst], capture_output=True, text=True)
    assert r.returncode == 0, f"aggregate.py failed ({r.returncode}):\n{r.stderr}"
    with open(dst) as f:
        got = json.load(f)
expected = {"days": {"2024-01-01": {"a": 2}, "2024-01-02": {"b": 1}},
            "unique_users": {"2024-01-01": 2, "2024-01-02": 1}, "total_events": 3, "skipped": 8}
assert got == expected, f"expected {expected}\ngot      {got}"
print("ok")
