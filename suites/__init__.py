"""Suites: versioned sets of cases on disk, the loader that turns a suite folder into Cases, the
importers that write HumanEval, Harbor/terminal-bench and SWE-bench as case folders, and the
validation record. Owns the case folder format (docs/SUITES.md) and content hashing.
Must not run cases: graders/ does that.
"""

from nightshift.errors import SuiteError
from nightshift.suites.catalog import resolve_suite
from nightshift.suites.loader import load_cases

__all__ = ["SuiteError", "load_cases", "resolve_suite"]
