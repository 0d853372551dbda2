"""The model simulator: a real OpenAI-compatible HTTP server that plays the agent deterministically.

It is a stand-in for a real model (none is reachable where nightshift is developed and tested). Parts:
``config`` (settings), ``rate_limits`` (per-key RPM/TPM buckets), ``faults`` (injected failures),
``request_log`` (what was asked and answered), ``cases`` (which case a request is about), ``policy`` (the
deterministic stand-in agent), ``server`` (the FastAPI app), ``embedded`` (run it as a subprocess) and
``__main__`` (the command line). See simulator/README.md.
"""

from nightshift.simulator.config import SimulatorConfig

__all__ = ["SimulatorConfig"]
