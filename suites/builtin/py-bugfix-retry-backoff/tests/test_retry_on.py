from resilient import retry

slept, calls = [], []
def bad():
    calls.append(1)
    raise ValueError("not retryable")
try:
    retry(bad, attempts=5, retry_on=(OSError,), sleep=slept.append)
except ValueError:
    pass
else:
    raise AssertionError("non-retryable exception must propagate")
assert calls == [1] and slept == [], f"calls={len(calls)} slept={slept}"

calls.clear()
def mixed():
    calls.append(1)
    if len(calls) == 1:
        raise OSError("transient")
    raise KeyError("fatal")
try:
    retry(mixed, attempts=5, base=2, retry_on=(OSError,), sleep=slept.append)
except KeyError:
    pass
else:
    raise AssertionError("KeyError must propagate")
assert len(calls) == 2 and slept == [2], f"calls={len(calls)} slept={slept}"
print("ok")
