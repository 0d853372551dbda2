"""The optional Prefect global concurrency limit on trials that call the model API.

An operator sees it in the Prefect UI (Concurrency → Global) and can lower it mid-night: each trial
holds one slot for its whole agent phase, so lowering the limit drains trials in flight as they end.
It is coarse on purpose: Prefect's limits poll the server (DESIGN.md; docs/BENCHMARKS.md has what a
slot costs here), so per-request shaping stays in the quota gate. Off unless the experiment names a limit.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("nightshift.gateway")
_ensured: set[str] = set()
_ensure_lock = threading.Lock()
LEASE_S = 600.0  # renewed at 75 % by Prefect while held; frees a crashed holder's slot after this


def ensure_limit(name: str, slots: int) -> None:
    """Create limit ``name`` with ``slots`` slots if the Prefect server lacks it; never change one that exists
    (an operator may have lowered it). Once per process."""
    with _ensure_lock:
        if name in _ensured:
            return

        from prefect.client.orchestration import get_client  # optional: the gateway imports Prefect only for a slot
        from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate  # optional: (as above)
        from prefect.exceptions import ObjectNotFound  # optional: (as above)

        with get_client(sync_client=True) as client:
            try:
                client.read_global_concurrency_limit_by_name(name)
            except ObjectNotFound:
                client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name=name, limit=slots))
                log.info("created Prefect concurrency limit %r with %d slots (lower it in the UI to throttle "
                         "API-calling trials)", name, slots)
        _ensured.add(name)


@contextmanager
def api_slot(name: str | None, slots: int) -> Iterator[list[float]]:
    """Hold one slot of limit ``name`` (created with ``slots`` if missing) for the block; yields a one-item
    list with the seconds spent waiting for it. A no-op yielding [0.0] when ``name`` is None."""
    waited = [0.0]
    if not name:
        yield waited
        return

    from prefect.concurrency.sync import concurrency  # optional: the gateway imports Prefect only for a slot

    ensure_limit(name, slots)
    started = time.monotonic()
    # strict=False: an operator who deletes the limit mid-night lifts it rather than failing every trial
    with concurrency(name, occupy=1, strict=False, lease_duration=LEASE_S):
        waited[0] = time.monotonic() - started
        yield waited
