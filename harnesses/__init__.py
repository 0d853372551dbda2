"""Harnesses: the agent loops under evaluation (nightshift.contracts.Harness).

Owns: turning a case into model calls and sandbox commands until the agent submits or hits a limit,
and logging every step. Must not grade, and never sees the tests.
"""

from nightshift.harnesses.tool_agent import ToolAgent

__all__ = ["ToolAgent"]
