"""Prefect is the control plane, not the data plane: artifact and progress updates are best-effort.

Every call that only tells the UI something (progress, summary table, report, links, state repair) goes
through ``Publisher.call``: it runs in a daemon thread with a short deadline, and when the API does not
answer in time or fails, the failure is logged once and further calls are skipped for a while, so a
Prefect server that goes away never stops a trial, never loses the Parquet or the report (written from
the rows on disk before any of this), and never holds the night up for the client's own retries.

``arm_exit_deadline`` bounds the end of a process whose API went away: Prefect drains its queued
events and logs at exit, and with no server that drain retries for tens of minutes. After the deadline
the process exits with the flow's own outcome.
"""

from __future__ import annotations

import contextvars
import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
from prefect.settings import get_current_settings

log = logging.getLogger("nightshift.publishing")

CALL_TIMEOUT_S = 5.0
"""How long one UI update may take before it is skipped."""
RETRY_AFTER_S = 60.0
"""After a failure, updates are skipped this long before the API is tried again."""
EXIT_DEADLINE_S = 20.0


class Publisher:
    """Best-effort calls to the Prefect API, with a circuit breaker shared by every caller of a night."""

    def __init__(self, timeout_s: float = CALL_TIMEOUT_S, retry_after_s: float = RETRY_AFTER_S) -> None:
        self.timeout_s = timeout_s
        self.retry_after_s = retry_after_s
        self.failures = 0
        self.skipped = 0
        self._down_since: float | None = None
        self._lock = threading.Lock()

    @property
    def unreachable(self) -> bool:
        """True once any update has failed in this night."""
        return self.failures > 0

    def call(self, what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` within the deadline, in the caller's Prefect context; None if it failed,
        timed out, or was skipped because the API failed less than ``retry_after_s`` ago."""
        with self._lock:
            if self._down_since is not None and time.monotonic() - self._down_since < self.retry_after_s:
                self.skipped += 1
                return None
        box: dict[str, Any] = {}
        context = contextvars.copy_context()  # the flow run context, so artifacts attach to this run

        def target() -> None:
            try:
                box["value"] = context.run(fn, *args, **kwargs)
            except BaseException as exc:  # noqa: BLE001 - reported below, never raised into the night
                box["error"] = exc

        thread = threading.Thread(target=target, name=f"nightshift-publish-{what}", daemon=True)
        thread.start()
        thread.join(self.timeout_s)
        if thread.is_alive() or "error" in box:
            why = (f"no answer within {self.timeout_s:.0f} s" if thread.is_alive()
                   else f"{type(box['error']).__name__}: {str(box['error'])[:200]}")
            with self._lock:
                self.failures += 1
                first = self._down_since is None
                self._down_since = time.monotonic()
            (log.warning if first else log.info)(
                "Prefect API: %s skipped (%s); the night goes on and its files are written from the rows on "
                "disk; updates are skipped for %.0f s", what, why, self.retry_after_s)
            return None
        with self._lock:
            self._down_since = None
        return box.get("value")


def api_answers(timeout_s: float = 3.0) -> bool:
    """Whether the Prefect API this process uses answers its health check now. A night can end without any
    UI update having failed (the calls Prefect turns into events queue silently), so the end asks."""

    url = get_current_settings().api.url
    if not url:
        return True  # a temporary in-process server: it goes away with the process anyway
    try:
        return httpx.get(f"{url.rstrip('/')}/health", timeout=timeout_s).status_code == 200
    except httpx.HTTPError:
        return False


def _exit_after(deadline_s: float, code: int) -> None:
    time.sleep(deadline_s)
    try:
        sys.stderr.write(f"nightshift: the Prefect API is unreachable; stopped waiting for queued events "
                         f"after {deadline_s:.0f} s (the run's files are written)\n")
        sys.stderr.flush()
        sys.stdout.flush()
    finally:
        os._exit(code)


def arm_exit_deadline(code: int = 0, deadline_s: float = EXIT_DEADLINE_S) -> bool:
    """Exit the process ``deadline_s`` from now with ``code`` unless it has exited by then.

    Only where nightshift owns the process: the CLI (``NIGHTSHIFT_OWNS_PROCESS``) or a flow-run process a
    worker started (``PREFECT__FLOW_RUN_ID``); never inside someone's notebook or test session.
    """
    if not (os.environ.get("NIGHTSHIFT_OWNS_PROCESS") or os.environ.get("PREFECT__FLOW_RUN_ID")):
        return False
    threading.Thread(target=_exit_after, args=(deadline_s, code), name="nightshift-exit-deadline",
                     daemon=True).start()
    return True
