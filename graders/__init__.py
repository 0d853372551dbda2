"""Graders: decide what the agent's final workspace is worth (nightshift.contracts.Grader).

Owns: copying tests in only after the agent has finished, running them in the sandbox, and the
counts that feed the status. Must not call the model.
"""

from graders.public_tests import GRADER_VERSION, PublicTestGrader

__all__ = ["GRADER_VERSION", "PublicTestGrader"]
