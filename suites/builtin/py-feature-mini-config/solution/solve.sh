#!/usr/bin/env bash
set -euo pipefail
cat > miniconf/parser.py <<'EOF'
"""A tiny INI-style configuration parser."""

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class ConfigError(ValueError):
    """Raised for malformed configuration text; ``lineno`` is 1-based."""

    def __init__(self, message, lineno):
        super().__init__(f"line {lineno}: {message}")
        self.lineno = lineno


def parse(text):
    """Parse INI text into ``{section: {key: value}}`` (see instruction)."""
    result = {}
    section = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            if not line.endswith("]") or not line[1:-1].strip():
                raise ConfigError(f"bad section header {raw!r}", lineno)
            section = line[1:-1].strip()
            result.setdefault(section, {})
            continue
        seps = [i for i in (line.find("="), line.find(":")) if i >= 0]
        if not seps:
            raise ConfigError(f"expected 'key = value', got {raw!r}", lineno)
        i = min(seps)
        key, value = line[:i].strip().lower(), line[i + 1:].strip()
        if not key:
            raise ConfigError("empty key", lineno)
        result.setdefault(section if section is not None else "global", {})[key] = value
    return result


def _lookup(conf, section, key):
    return conf.get(section, {}).get(key)


def get_int(conf, section, key, default=None):
    """Return the value as int, ``default`` if missing; ValueError if not an int."""
    value = _lookup(conf, section, key)
    return default if value is None else int(value)


def get_bool(conf, section, key, default=None):
    """Return true/yes/on/1 -> True, false/no/off/0 -> False, ``default`` if missing."""
    value = _lookup(conf, section, key)
    if value is None:
        return default
    low = value.lower()
    if low in _TRUE:
        return True
    if low in _FALSE:
        return False
    raise ValueError(f"not a boolean: {value!r}")
EOF
