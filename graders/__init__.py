"""Graders: decide what the agent's final workspace is worth (nightshift.contracts.Grader).

Owns: copying tests in only after the agent has finished, generating hidden stress tests at grade
time, running everything in the sandbox, progress scores, and oracle validation of cases.
Must not call the model.
"""

from nightshift.graders.case_grader import GRADER_VERSION, CaseGrader

__all__ = ["GRADER_VERSION", "CaseGrader"]
