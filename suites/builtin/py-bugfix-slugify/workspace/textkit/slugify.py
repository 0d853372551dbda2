"""URL slug generation."""
import re

from .normalize import strip_accents

_NON_ALNUM = re.compile(r"[^a-z0-9]")


def slugify(text, sep="-", max_length=None):
    """Turn ``text`` into a lowercase ASCII slug.

    Every run of characters outside ``a-z0-9`` becomes one ``sep``; leading and
    trailing separators are removed. ``max_length`` truncates the result and then
    strips a trailing separator.
    """
    text = strip_accents(text).lower()
    slug = _NON_ALNUM.sub(sep, text).strip(sep)
    if max_length is not None:
        slug = slug[:max_length].rstrip(sep)
    return slug
