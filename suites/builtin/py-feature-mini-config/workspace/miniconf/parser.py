"""A tiny INI-style configuration parser."""


class ConfigError(ValueError):
    """Raised for malformed configuration text; ``lineno`` is 1-based."""

    def __init__(self, message, lineno):
        super().__init__(f"line {lineno}: {message}")
        self.lineno = lineno


def parse(text):
    """Parse INI text into ``{section: {key: value}}`` (see instruction)."""
    raise NotImplementedError


def get_int(conf, section, key, default=None):
    """Return the value as int, ``default`` if missing; ValueError if not an int."""
    raise NotImplementedError


def get_bool(conf, section, key, default=None):
    """Return true/yes/on/1 -> True, false/no/off/0 -> False, ``default`` if missing."""
    raise NotImplementedError
