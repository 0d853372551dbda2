"""Small statistics helpers."""
from .median import median

__all__ = ["median"]
