from .backoff import delays
from .retry import retry

__all__ = ["delays", "retry"]
