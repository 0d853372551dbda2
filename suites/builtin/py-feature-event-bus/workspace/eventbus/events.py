"""Event objects delivered to handlers."""
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    topic: str
    payload: Any = None

    def __str__(self):
        return f"<{self.topic}>" if self.payload is None else f"<{self.topic} {self.payload!r}>"
