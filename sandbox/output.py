"""Capped capture of a process's output: keep the first N bytes, count and drop the rest."""

from __future__ import annotations

import threading
from typing import IO


class CappedBuffer:
    """Keeps the first ``cap_bytes`` fed to it and counts the rest, so 100 MB of output costs 64 KiB."""

    def __init__(self, cap_bytes: int):
        self.cap = cap_bytes
        self.kept = bytearray()
        self.dropped = 0

    def feed(self, chunk: bytes) -> None:
        room = self.cap - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        tail = f"\n[... {self.dropped} bytes dropped]" if self.dropped else ""
        return self.kept.decode("utf-8", errors="replace") + tail


class CappedReader(threading.Thread):
    """Drains a pipe on its own thread so a chatty process never blocks or fills our memory."""

    def __init__(self, stream: IO[bytes], cap_bytes: int):
        super().__init__(daemon=True)
        self.stream = stream
        self.buffer = CappedBuffer(cap_bytes)
        self.start()

    def run(self) -> None:
        while chunk := self.stream.read(65536):
            self.buffer.feed(chunk)
        self.stream.close()

    @property
    def dropped(self) -> int:
        return self.buffer.dropped

    def text(self) -> str:
        self.join(timeout=5)
        return self.buffer.text()
