from .lru import LRUCache
from .stats import hit_ratio

__all__ = ["LRUCache", "hit_ratio"]
