from .bus import EventBus, PublishError
from .events import Event
from .patterns import matches

__all__ = ["EventBus", "PublishError", "Event", "matches"]
