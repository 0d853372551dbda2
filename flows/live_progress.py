"""Who is watching this process's night as it runs: the terminal bar of `nightshift run`, or nobody.

The flow calls `started` once, `finished` per trial and `eta` whenever it logs the planner's line (every
5 % of the night); observers registered with `watching` hear it.
An observer is a display: whatever it raises is swallowed, so a broken terminal never stops a night.
Prefect's own progress artifact and log lines (flows/trial_map.py) go on regardless.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Protocol

log = logging.getLogger("nightshift.progress")


class NightObserver(Protocol):
    def started(self, total: int, done: int) -> None:
        """`total` trials in this night, `done` of them already answered (rows on disk)."""

    def finished(self, status: str) -> None:
        """One more trial ended with `status` (a TrialStatus value)."""

    def eta(self, line: str) -> None:
        """The planner's 'trials done: …, ETA …' line (with an infra spike alert when one fired)."""


_observers: list[NightObserver] = []


@contextlib.contextmanager
def watching(observer: NightObserver) -> Iterator[NightObserver]:
    _observers.append(observer)
    try:
        yield observer
    finally:
        _observers.remove(observer)


def watched() -> bool:
    return bool(_observers)


def _tell(method: str, *args) -> None:
    for observer in list(_observers):
        try:
            getattr(observer, method)(*args)
        except Exception:  # noqa: BLE001 - a display must not stop a night
            log.debug("progress observer %r failed", observer, exc_info=True)


def started(total: int, done: int) -> None:
    _tell("started", total, done)


def finished(status: str) -> None:
    _tell("finished", status)


def eta(line: str) -> None:
    _tell("eta", line)
