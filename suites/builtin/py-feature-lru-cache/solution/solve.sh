#!/usr/bin/env bash
set -euo pipefail
cat > cachelib/lru.py <<'EOF'
"""A least-recently-used cache."""
from collections import OrderedDict


class LRUCache:
    """Mapping with a fixed capacity that evicts the least recently used key.

    "Used" means inserted or updated with ``put`` or read with ``get``.
    """

    def __init__(self, capacity):
        """Create an empty cache. ``capacity`` must be an int >= 1 (else ValueError)."""
        if not isinstance(capacity, int) or isinstance(capacity, bool) or capacity < 1:
            raise ValueError("capacity must be an int >= 1")
        self.capacity = capacity
        self._data = OrderedDict()

    def get(self, key, default=None):
        if key not in self._data:
            return default
        self._data.move_to_end(key)
        return self._data[key]

    def put(self, key, value):
        if key in self._data:
            self._data.move_to_end(key)
        self._data[key] = value
        if len(self._data) > self.capacity:
            old, _ = self._data.popitem(last=False)
            return old
        return None

    def __len__(self):
        return len(self._data)

    def __contains__(self, key):
        return key in self._data

    def keys(self):
        return list(self._data)
EOF
