"""Topic pattern matching: ``*`` = exactly one word, ``#`` = zero or more words."""


def validate(name):
    """Raise ValueError if ``name`` is empty or contains an empty dot-separated word."""
    raise NotImplementedError


def matches(pattern, topic):
    """Return True if ``topic`` matches ``pattern``."""
    raise NotImplementedError
