from timelog.sessions import duration_minutes

for start, end, expected in [
    ("2024-03-01T09:00:00Z", "2024-03-02T10:00:00Z", 25 * 60),
    ("2024-02-28T00:00:00Z", "2024-03-01T00:00:00Z", 2 * 24 * 60),
    ("2024-03-01T23:59:30Z", "2024-03-04T00:00:29Z", 2 * 24 * 60 + 0),
]:
    got = duration_minutes(start, end)
    assert got == expected, f"duration_minutes({start}, {end}) -> {got}, expected {expected}"
print("ok")
