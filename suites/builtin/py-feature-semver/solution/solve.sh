#!/usr/bin/env bash
set -euo pipefail
cat > versions/semver.py <<'EOF'
"""Semantic Versioning 2.0.0 versions."""
import functools
import re

_NUM = r"(?:0|[1-9][0-9]*)"
_IDENT = r"[0-9A-Za-z-]+"
_PATTERN = re.compile(
    rf"({_NUM})\.({_NUM})\.({_NUM})"
    rf"(?:-({_IDENT}(?:\.{_IDENT})*))?"
    rf"(?:\+({_IDENT}(?:\.{_IDENT})*))?"
)


@functools.total_ordering
class Version:
    def __init__(self, major, minor, patch, prerelease=(), build=()):
        self.major = major
        self.minor = minor
        self.patch = patch
        self.prerelease = tuple(prerelease)
        self.build = tuple(build)

    @classmethod
    def parse(cls, text):
        """Parse ``MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]``; ValueError if invalid."""
        m = _PATTERN.fullmatch(text) if isinstance(text, str) else None
        if not m or not text.isascii():
            raise ValueError(f"invalid version: {text!r}")
        pre = []
        for ident in (m.group(4).split(".") if m.group(4) else []):
            if ident.isdigit():
                if len(ident) > 1 and ident[0] == "0":
                    raise ValueError(f"leading zero in prerelease: {text!r}")
                pre.append(int(ident))
            else:
                pre.append(ident)
        build = m.group(5).split(".") if m.group(5) else []
        return cls(int(m.group(1)), int(m.group(2)), int(m.group(3)), pre, build)

    def __str__(self):
        s = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            s += "-" + ".".join(str(p) for p in self.prerelease)
        if self.build:
            s += "+" + ".".join(self.build)
        return s

    def __repr__(self):
        return f"Version({str(self)!r})"

    def _key(self):
        pre = tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in self.prerelease)
        # a release (no prerelease) sorts after every prerelease of the same version
        return (self.major, self.minor, self.patch, 0 if pre else 1, pre)

    def __eq__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other):
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def bump(self, part):
        """Return the next ``"major"``, ``"minor"`` or ``"patch"`` version."""
        if part == "major":
            return Version(self.major + 1, 0, 0)
        if part == "minor":
            return Version(self.major, self.minor + 1, 0)
        if part == "patch":
            if self.prerelease:
                return Version(self.major, self.minor, self.patch)
            return Version(self.major, self.minor, self.patch + 1)
        raise ValueError(f"unknown part: {part!r}")
EOF
