"""One JSON line per event of a trial's agent phase: model turns, tool calls and their outputs (docs/VIEWER.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import TracebackType
from typing import Any


class TrajectoryLog:
    """A trial's trajectory file, written one event at a time: ``write("model", message=...)``."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file = path.open("w")
        self._t0 = time.monotonic()

    def write(self, event: str, **fields: Any) -> None:
        record = {"t": round(time.monotonic() - self._t0, 4), "event": event, **fields}
        self._file.write(json.dumps(record, default=str) + "\n")
        self._file.flush()

    def __enter__(self) -> TrajectoryLog:
        return self

    def __exit__(self, exc_type: type | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._file.close()
