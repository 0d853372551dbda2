from resilient import retry

slept = []
calls = []
def fn():
    calls.append(1)
    return "done"
assert retry(fn, attempts=4, sleep=slept.append) == "done"
assert len(calls) == 1 and slept == [], (calls, slept)
print("ok")
