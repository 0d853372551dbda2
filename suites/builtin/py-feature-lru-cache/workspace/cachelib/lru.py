"""A least-recently-used cache."""


class LRUCache:
    """Mapping with a fixed capacity that evicts the least recently used key.

    "Used" means inserted or updated with ``put`` or read with ``get``.
    """

    def __init__(self, capacity):
        """Create an empty cache. ``capacity`` must be an int >= 1 (else ValueError)."""
        raise NotImplementedError

    def get(self, key, default=None):
        """Return the value for ``key`` and mark it most recently used.

        Return ``default`` if ``key`` is absent (recency is unchanged).
        """
        raise NotImplementedError

    def put(self, key, value):
        """Insert or update ``key`` and mark it most recently used.

        If this makes the cache exceed its capacity, remove the least recently
        used entry and return its key. Otherwise return ``None``.
        """
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def __contains__(self, key):
        """Membership test; does not affect recency."""
        raise NotImplementedError

    def keys(self):
        """Keys ordered from least recently used to most recently used."""
        raise NotImplementedError
