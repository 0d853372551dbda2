from resilient import retry

slept, calls = [], []
def always():
    calls.append(1)
    raise ConnectionError(f"failure {len(calls)}")
try:
    retry(always, attempts=4, base=0.5, factor=2, max_delay=1.5, sleep=slept.append)
except ConnectionError as e:
    assert str(e) == "failure 4", f"re-raised {e!r}, expected the last failure"
else:
    raise AssertionError("retry must re-raise when all attempts fail")
assert len(calls) == 4, f"fn called {len(calls)} times, expected 4"
assert slept == [0.5, 1.0, 1.5], f"slept {slept}"
print("ok")
