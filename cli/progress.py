"""The live bar `nightshift run` shows on a terminal: trials done of the night, counts by status, the ETA.

While it shows, the per-trial INFO lines Prefect prints to the console (two per trial) and the flow's
periodic "trials done" line are held back from the terminal: the bar says the same in one line. They
still reach the Prefect API (the UI shows every task run's log); warnings and errors still print.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sys
from collections import Counter
from collections.abc import Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from nightshift.flows import live_progress

STYLE = {"resolved": "green", "failed": "red", "infra_error": "magenta", "from rows": "dim"}
ETA = re.compile(r"ETA [^;(]+\(in [^;)]+")


class TrialBar:
    """A NightObserver (flows/live_progress.py) drawing one rich progress bar."""

    def __init__(self, console: Console):
        self.progress = Progress(TextColumn("trials"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                 TextColumn("{task.fields[counts]}"), TextColumn("[dim]{task.fields[eta]}"),
                                 console=console, refresh_per_second=4)
        self.counts: Counter[str] = Counter()
        self.task: TaskID | None = None

    def _counts(self) -> str:
        order = sorted(self.counts, key=lambda s: (s == "from rows", -self.counts[s], s))
        return "  ".join(f"[{STYLE.get(s, 'yellow')}]{s} {self.counts[s]:,}[/]" for s in order)

    def started(self, total: int, done: int) -> None:
        if done:
            self.counts["from rows"] = done
        if self.task is None:
            self.task = self.progress.add_task("night", total=total, completed=done, counts=self._counts(), eta="")
        else:  # a second mapping in the same process (a shard's slice): start over
            self.progress.reset(self.task, total=total, completed=done, counts=self._counts(), eta="")

    def finished(self, status: str) -> None:
        self.counts[status] += 1
        self.progress.update(self._started(), advance=1, counts=self._counts())

    def eta(self, line: str) -> None:
        found = ETA.search(line)
        self.progress.update(self._started(), eta=(found.group(0) + ")") if found else "")

    def _started(self) -> TaskID:
        assert self.task is not None, "started() comes first: the observer's calls follow the mapping"
        return self.task


class _TrialLinesHeldBack(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        if record.name.startswith("prefect.task_runs"):
            return False
        return not (record.name.startswith("prefect.flow_runs") and str(record.msg).startswith("trials done"))


def _console_handlers() -> list[logging.StreamHandler]:
    """Every handler printing to the terminal: the root's and each configured logger's (Prefect puts its
    console handler on the ``prefect`` loggers, which do not propagate to the root). Handlers writing anywhere
    else (a file, a test's capture buffer) are left alone."""
    terminal = {id(f) for f in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__) if f is not None}
    loggers = [logging.getLogger(), *(logger for logger in logging.Logger.manager.loggerDict.values()
                                      if isinstance(logger, logging.Logger))]
    found: dict[int, logging.StreamHandler] = {}
    for logger in loggers:
        for handler in logger.handlers:
            if isinstance(handler, logging.StreamHandler) and id(handler.stream) in terminal:
                found[id(handler)] = handler
    return list(found.values())


@contextlib.contextmanager
def _printing_above(console: Console, handlers: list[logging.StreamHandler]) -> Iterator[None]:
    """Lines those handlers print go through the bar's console, so they land above the bar, not glued onto it
    (a handler keeps the stream it was built with; the bar only redirects sys.stdout and sys.stderr)."""
    saved = [(h, getattr(h, "console", None), h.stream) for h in handlers]
    for handler, own, _ in saved:
        if isinstance(own, Console):  # Prefect's console handler prints through its own rich Console
            handler.console = console  # type: ignore[attr-defined]
        else:  # entered inside the bar: sys.stderr is the bar's proxy, which prints above it
            handler.setStream(sys.stderr)
    try:
        yield
    finally:
        for handler, own, stream in saved:
            if isinstance(own, Console):
                handler.console = own  # type: ignore[attr-defined]
            else:
                handler.setStream(stream)


@contextlib.contextmanager
def trial_bar(console: Console) -> Iterator[TrialBar]:
    """Show the bar for the night run inside; the console handlers hold back per-trial lines meanwhile."""
    bar = TrialBar(console)
    held = _TrialLinesHeldBack()
    handlers = _console_handlers()
    for handler in handlers:
        handler.addFilter(held)
    try:
        with bar.progress, live_progress.watching(bar), _printing_above(bar.progress.console, handlers):
            yield bar
    finally:
        for handler in handlers:
            handler.removeFilter(held)
