"""Semantic Versioning 2.0.0 versions."""
import functools


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
        raise NotImplementedError

    def __str__(self):
        raise NotImplementedError

    def __repr__(self):
        return f"Version({str(self)!r})"

    def __eq__(self, other):
        raise NotImplementedError

    def __lt__(self, other):
        raise NotImplementedError

    def __hash__(self):
        raise NotImplementedError

    def bump(self, part):
        """Return the next ``"major"``, ``"minor"`` or ``"patch"`` version."""
        raise NotImplementedError
