"""Capped capture of a process's output: keep the first N bytes, count and drop the rest."""

from __future__ import annotations

import threading
from typing import IO


class CappedReader(threading.Thread):
    """Drains a pipe on its own thread so a chatty process never blocks or fills our memory."""

    def __init__(self, stream: IO[bytes], cap_bytes: int):
        super().__init__(daemon=True)
        self.stream = stream
        self.cap = cap_bytes
        self.kept = bytearray()
        self.dropped = 0
        self.start()

    def run(self) -> None:
        while chunk := self.stream.read(65536):
            room = self.cap - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]
            self.dropped += max(0, len(chunk) - max(room, 0))
        self.stream.close()

    def text(self) -> str:
        self.join(timeout=5)
        tail = f"\n[... {self.dropped} bytes dropped]" if self.dropped else ""
        return self.kept.decode("utf-8", errors="replace") + tail
