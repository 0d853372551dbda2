"""The model gateway: every model call of every trial goes through here.

Owns: the OpenAI SDK client for an OpenAI-compatible endpoint, retries with backoff that honour
Retry-After, per-trial accounting (calls, tokens, 429s, retry wait), and resolving a model name to
the version the endpoint reports. Must not know about cases, sandboxes or grading.
"""

from gateway.client import GatewayError, GatewaySession, ModelGateway

__all__ = ["GatewayError", "GatewaySession", "ModelGateway"]
