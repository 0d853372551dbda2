"""Sandbox backends behind one interface (nightshift.contracts.Sandbox): bubblewrap ("local") and docker.

Owns: creating an isolated place per trial with limits and no network, running commands in it with
timeouts and capped output, copying files in and out, destroying it, and reaping leftovers of dead
runs. Must not know about models, cases or grading.
"""

from nightshift.sandbox.factory import backend_for

__all__ = ["backend_for"]
