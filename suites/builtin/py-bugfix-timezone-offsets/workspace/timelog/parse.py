"""Timestamp parsing."""
from datetime import datetime, timezone

_FORMAT = "%Y-%m-%dT%H:%M:%S"


def parse_ts(text):
    """Parse an ISO-8601 timestamp (``Z``, ``+HH:MM``/``-HH:MM`` or no suffix = UTC).

    Returns an aware datetime in UTC.
    """
    text = text.strip()
    base = datetime.strptime(text[:19], _FORMAT)
    suffix = text[19:]
    if suffix not in ("", "Z") and suffix[0] not in "+-":
        raise ValueError(f"bad timestamp: {text!r}")
    return base.replace(tzinfo=timezone.utc)
