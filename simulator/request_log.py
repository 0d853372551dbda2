"""The request log: every completion request counted in memory and, optionally, one JSON line in a file.

A row is ``{t, key_hash, model, seed, case_id, prompt_tokens, completion_tokens, charged_tokens, status,
fault}``: ``charged_tokens`` is what the rate limiter took from the key's token quota (0 when it rejected
the request), ``status`` 0 when the connection was dropped without a status (reset, timeout), ``fault`` the
injected fault kind or null. ``key_hash`` is a short hash of the API key; the key itself is never stored.
Tests and the benchmark read the file (``read_log``) or ``GET /sim/stats``.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from pathlib import Path


def key_hash(key: str) -> str:
    """First 8 hex digits of sha256 of the API key: enough to tell keys apart, useless to an attacker."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


class RequestLog:
    """Counts requests by status and fault in memory and appends one JSON line per request to ``path``."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.requests = 0
        self.tokens = 0
        self.charged_tokens = 0
        self.by_status: dict[str, int] = {}
        self.by_fault: dict[str, int] = {}
        self.by_protocol: dict[str, int] = {}  # which wire protocol each request came in
        self._lock = threading.Lock()
        self._file = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("a", buffering=1)  # line-buffered: a reader sees whole rows

    def record(self, *, key: str | None, model: str | None, seed: int | None, case_id: str | None,
               prompt_tokens: int, completion_tokens: int, status: int, charged_tokens: int = 0,
               fault: str | None = None, protocol: str = "chat") -> None:
        row = {"t": round(time.time(), 3), "key_hash": key_hash(key) if key else None, "model": model,
               "seed": seed, "case_id": case_id, "prompt_tokens": prompt_tokens,
               "completion_tokens": completion_tokens, "charged_tokens": charged_tokens, "status": status,
               "fault": fault, "protocol": protocol}
        with self._lock:
            self.requests += 1
            self.by_protocol[protocol] = self.by_protocol.get(protocol, 0) + 1
            self.by_status[str(status)] = self.by_status.get(str(status), 0) + 1
            self.charged_tokens += charged_tokens
            if fault is not None:
                self.by_fault[fault] = self.by_fault.get(fault, 0) + 1
            elif status == 200:
                self.tokens += prompt_tokens + completion_tokens
            if self._file is not None:
                self._file.write(json.dumps(row) + "\n")

    def stats(self) -> dict:
        with self._lock:
            return {"requests": self.requests, "by_status": dict(self.by_status), "tokens": self.tokens,
                    "charged_tokens": self.charged_tokens, "by_fault": dict(self.by_fault),
                    "by_protocol": dict(self.by_protocol)}


def read_log(path: Path) -> list[dict]:
    """The rows of a request log file (a partly written last line is skipped)."""
    rows = []
    for line in Path(path).read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:
            continue
    return rows
