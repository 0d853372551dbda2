"""The model gateway: every model call of every trial goes through here.

Owns: the OpenAI SDK client for an OpenAI-compatible endpoint; the process-wide quota gate (requests/min
and tokens/min token buckets, paused and slowed by 429s, fed by the x-ratelimit-* headers); the fleet's
shared buckets in Redis when a quota store is named; retries with backoff that honour Retry-After; the
optional Prefect concurrency slot for API-calling trials; per-trial accounting (calls, tokens, 429s, waits,
cost). Must not know about cases, sandboxes or grading. See docs/GATEWAY.md.
"""

from nightshift.gateway.buckets import Quota, QuotaGate, TokenBucket
from nightshift.gateway.client import GatewaySession, ModelGateway
from nightshift.gateway.fleet import FleetBuckets
from nightshift.gateway.headers import RateLimitHeaders

__all__ = ["FleetBuckets", "GatewaySession", "ModelGateway", "Quota", "QuotaGate", "RateLimitHeaders", "TokenBucket"]
