"""Suites: versioned sets of cases on disk, and the loader that turns a suite folder into Cases.

Owns the case folder format (see suites/README.md) and content hashing. Must not run anything.
"""

from suites.loader import SuiteError, load_cases, suite_hash

__all__ = ["SuiteError", "load_cases", "suite_hash"]
