"""Protected splits (docs/SPLITS.md): who may run a held-out or commercial case, and what a run leaves behind.

Owns the split keys (one Fernet key per protected split, from an environment variable or a Prefect Secret block),
sealing bytes at rest, the opaque ids protected cases show outside their run, the hash-chained audit log and the
per-split budget counted from it. Knows nothing of case folders (suites/ seals and opens those with these keys)
nor of nights (the flow asks ``grants`` before any trial and appends to the audit log).
"""

from nightshift.splits.keys import PROTECTED_SPLITS, SplitAccessError, is_protected, key_env, split_key

__all__ = ["PROTECTED_SPLITS", "SplitAccessError", "is_protected", "key_env", "split_key"]
