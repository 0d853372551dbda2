#!/usr/bin/env bash
set -euo pipefail
cat > timelog/parse.py <<'EOF'
"""Timestamp parsing."""
import re
from datetime import datetime, timedelta, timezone

_FORMAT = "%Y-%m-%dT%H:%M:%S"
_SUFFIX = re.compile(r"(?:Z|([+-])(\d\d):(\d\d))?")


def parse_ts(text):
    """Parse an ISO-8601 timestamp (``Z``, ``+HH:MM``/``-HH:MM`` or no suffix = UTC).

    Returns an aware datetime in UTC.
    """
    text = text.strip()
    base = datetime.strptime(text[:19], _FORMAT)
    m = _SUFFIX.fullmatch(text[19:])
    if not m:
        raise ValueError(f"bad timestamp: {text!r}")
    offset = timedelta(0)
    if m.group(1):
        offset = timedelta(hours=int(m.group(2)), minutes=int(m.group(3)))
        if m.group(1) == "-":
            offset = -offset
    return base.replace(tzinfo=timezone(offset)).astimezone(timezone.utc)
EOF
sed -i 's|return (b - a).seconds // 60|return int((b - a).total_seconds() // 60)|' timelog/sessions.py
grep -q 'total_seconds' timelog/sessions.py
