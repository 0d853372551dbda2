from datetime import datetime, timezone
from timelog.parse import parse_ts

assert parse_ts("2024-03-01T10:00:00Z") == datetime(2024, 3, 1, 10, 0, tzinfo=timezone.utc)
t = parse_ts("2024-03-01T10:00:05")
assert t == datetime(2024, 3, 1, 10, 0, 5, tzinfo=timezone.utc) and t.tzinfo is not None, t
for bad in ["2024-03-01 10:00:00", "yesterday", "2024-03-01T10:00:00 UTC"]:
    try:
        parse_ts(bad)
    except ValueError:
        pass
    else:
        raise AssertionError(f"parse_ts({bad!r}) should raise ValueError")
print("ok")
