"""Small text helpers."""
from .slugify import slugify
from .normalize import strip_accents

__all__ = ["slugify", "strip_accents"]
