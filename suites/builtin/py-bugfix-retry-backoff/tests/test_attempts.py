from resilient import retry

slept, calls = [], []
def flaky():
    calls.append(1)
    if len(calls) < 3:
        raise ConnectionError("boom")
    return 42
r = retry(flaky, attempts=3, base=0.1, sleep=slept.append)
assert r == 42, f"retry returned {r!r} after {len(calls)} calls, expected 42"
assert len(calls) == 3, f"fn called {len(calls)} times, expected 3"
assert slept == [0.1, 0.2], f"slept {slept}, expected [0.1, 0.2]"

slept, calls = [], []
def once():
    calls.append(1)
    if len(calls) == 1:
        raise TimeoutError()
    return "ok"
r = retry(once, attempts=5, base=1, factor=3, sleep=slept.append)
assert r == "ok", f"retry returned {r!r}"
assert slept == [1], slept
print("ok")
