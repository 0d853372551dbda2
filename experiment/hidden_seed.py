"""Which hidden tests a trial meets: the night's hidden seed, and the per-case seed derived from it.

A night's seed is new every night (derived from the experiment's name and the night's date), so
hidden inputs cannot be learned from one night to the next, and it is pinned in the manifest, so a
resumed night and every shard grade against the same tests. An experiment fixes it with
``hidden_seed:`` to replay a night. Each case gets its own seed from (night seed, case id): two
cases never share a random stream, and a case's row records the seed it was graded with, so
re-grading the row regenerates exactly its tests.
"""

from __future__ import annotations

import hashlib
import os
from datetime import UTC, date, datetime, timedelta

NIGHT_ENV = "NIGHTSHIFT_NIGHT"
# a night runs from noon to noon (UTC): a run started at 22:00 and resumed at 03:00 is one night
NIGHT_STARTS_AT_HOUR = 12


def night_of(now: datetime | None = None) -> date:
    """The date a night is named by: NIGHTSHIFT_NIGHT (YYYY-MM-DD) if set, else the UTC date noon-to-noon."""
    pinned = os.environ.get(NIGHT_ENV)
    if pinned:
        try:
            return date.fromisoformat(pinned)
        except ValueError as exc:
            raise ValueError(f"{NIGHT_ENV}={pinned!r}: not a date; write it as YYYY-MM-DD or unset it") from exc
    now = now or datetime.now(UTC)
    return (now - timedelta(hours=NIGHT_STARTS_AT_HOUR)).date()


def _int63(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def night_seed(experiment: str, fixed: int | None = None, night: date | None = None) -> int:
    """The night's hidden seed: ``fixed`` when the experiment pins one (a replay), else new each night."""
    if fixed is not None:
        return fixed
    return _int63(f"nightshift-hidden/{experiment}/{(night or night_of()).isoformat()}")


def case_seed(night: int, case_id: str) -> int:
    """The seed one case's generator gets on a night: independent streams per case, same for every trial."""
    return _int63(f"nightshift-hidden-case/{night}/{case_id}")
