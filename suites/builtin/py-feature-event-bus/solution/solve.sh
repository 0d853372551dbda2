#!/usr/bin/env bash
set -euo pipefail
cat > eventbus/patterns.py <<'EOF'
"""Topic pattern matching: ``*`` = exactly one word, ``#`` = zero or more words."""
from functools import lru_cache


def validate(name):
    """Raise ValueError if ``name`` is empty or contains an empty dot-separated word."""
    if not isinstance(name, str) or not name or any(w == "" for w in name.split(".")):
        raise ValueError(f"invalid topic or pattern: {name!r}")


def _match(pat, words):
    @lru_cache(maxsize=None)
    def go(i, j):
        if i == len(pat):
            return j == len(words)
        if pat[i] == "#":
            return go(i + 1, j) or (j < len(words) and go(i, j + 1))
        if j == len(words):
            return False
        return (pat[i] == "*" or pat[i] == words[j]) and go(i + 1, j + 1)
    return go(0, 0)


def matches(pattern, topic):
    """Return True if ``topic`` matches ``pattern``."""
    validate(pattern)
    validate(topic)
    return _match(tuple(pattern.split(".")), tuple(topic.split(".")))
EOF
cat > eventbus/bus.py <<'EOF'
"""A synchronous publish/subscribe event bus."""
import itertools

from .events import Event
from .patterns import matches, validate


class PublishError(Exception):
    """Raised by ``publish`` after all handlers ran if any of them failed."""

    def __init__(self, errors):
        super().__init__(f"{len(errors)} handler(s) failed")
        self.errors = errors


class EventBus:
    def __init__(self):
        self._subs = {}  # token -> (pattern, handler, priority)
        self._tokens = itertools.count(1)

    def subscribe(self, pattern, handler, priority=0):
        """Register ``handler`` for topics matching ``pattern``; return a token."""
        validate(pattern)
        token = next(self._tokens)
        self._subs[token] = (pattern, handler, priority)
        return token

    def unsubscribe(self, token):
        """Remove a subscription; return True if it existed."""
        return self._subs.pop(token, None) is not None

    def publish(self, topic, payload=None):
        """Deliver ``Event(topic, payload)`` to matching handlers; return how many ran."""
        validate(topic)
        targets = sorted(
            ((tok, h, prio) for tok, (pat, h, prio) in self._subs.items() if matches(pat, topic)),
            key=lambda t: (-t[2], t[0]),
        )
        event = Event(topic, payload)
        errors = []
        for token, handler, _ in targets:
            try:
                handler(event)
            except Exception as exc:  # collected and re-raised below
                errors.append((token, exc))
        if errors:
            raise PublishError(errors)
        return len(targets)
EOF
