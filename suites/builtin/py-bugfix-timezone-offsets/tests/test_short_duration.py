from timelog.sessions import duration_minutes

assert duration_minutes("2024-03-01T09:00:00Z", "2024-03-01T10:30:59Z") == 90
assert duration_minutes("2024-03-01T09:00:00Z", "2024-03-01T09:00:00Z") == 0
try:
    duration_minutes("2024-03-01T10:00:00Z", "2024-03-01T09:00:00Z")
except ValueError:
    pass
else:
    raise AssertionError("end before start must raise ValueError")
print("ok")
