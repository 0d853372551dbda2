from datetime import datetime, timezone
from timelog.parse import parse_ts
from timelog.sessions import duration_minutes, sort_events

utc = timezone.utc
for text, expected in [
    ("2024-03-01T12:00:00+02:00", datetime(2024, 3, 1, 10, 0, tzinfo=utc)),
    ("2024-03-01T04:30:00-05:30", datetime(2024, 3, 1, 10, 0, tzinfo=utc)),
    ("2024-03-01T00:15:00+01:00", datetime(2024, 2, 29, 23, 15, tzinfo=utc)),
]:
    got = parse_ts(text)
    assert got == expected, f"parse_ts({text!r}) -> {got}, expected {expected}"
    assert got.utcoffset().total_seconds() == 0, f"result not in UTC: {got}"
assert duration_minutes("2024-03-01T09:00:00+01:00", "2024-03-01T09:00:00Z") == 60
events = [("2024-03-01T10:30:00+02:00", "b"), ("2024-03-01T09:00:00Z", "c"), ("2024-03-01T09:00:00+01:00", "a")]
got = [label for _, label in sort_events(events)]
assert got == ["a", "b", "c"], f"sort_events order {got}"
print("ok")
