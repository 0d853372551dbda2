"""A synchronous publish/subscribe event bus."""
from .events import Event
from .patterns import matches, validate


class PublishError(Exception):
    """Raised by ``publish`` after all handlers ran if any of them failed."""

    def __init__(self, errors):
        super().__init__(f"{len(errors)} handler(s) failed")
        self.errors = errors


class EventBus:
    def __init__(self):
        raise NotImplementedError

    def subscribe(self, pattern, handler, priority=0):
        """Register ``handler`` for topics matching ``pattern``; return a token."""
        raise NotImplementedError

    def unsubscribe(self, token):
        """Remove a subscription; return True if it existed."""
        raise NotImplementedError

    def publish(self, topic, payload=None):
        """Deliver ``Event(topic, payload)`` to matching handlers; return how many ran."""
        raise NotImplementedError
