"""One quota for the whole fleet: the key's request and token buckets kept in Redis, shared by every worker.

Owns the shared half of quota shaping; the process's QuotaGate (buckets.py) still shapes locally on top.

GCRA (the generic cell rate algorithm), not a token bucket with a refill loop: each bucket is ONE number in
Redis, its theoretical arrival time (TAT), updated by one atomic server-side script per model call. No
process refills anything, so a worker that joins, leaves or dies changes nothing for the others and holds
nothing (an idle key expires); the script reads Redis's own clock, so workers on hosts with skewed clocks
still agree. A reservation may go into debt, as the local buckets do: the caller is told how long to sleep,
which keeps callers in arrival order across the whole fleet.

When Redis cannot be reached, `reserve` answers None and the gate falls back to this worker's configured
share of the quota (said once in the log, and again when the store is back): no trial fails for it.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time

import redis

log = logging.getLogger("nightshift.gateway.fleet")

# KEYS: request bucket, token bucket. ARGV: per bucket (seconds per unit, tolerance seconds, amount).
# A unit rate of 0 means "no quota known for this bucket": it is skipped. Returns the wait as a string
# (Redis would truncate a Lua number to an integer).
_RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local wait = 0
for i = 1, #KEYS do
  local interval = tonumber(ARGV[3 * i - 2])
  local tolerance = tonumber(ARGV[3 * i - 1])
  local amount = tonumber(ARGV[3 * i])
  if interval > 0 then
    local tat = tonumber(redis.call('GET', KEYS[i]) or now)
    if tat < now then tat = now end
    tat = tat + amount * interval
    if tat < now then tat = now end
    redis.call('SET', KEYS[i], tostring(tat), 'PX', math.ceil((tat - now + tolerance) * 1000) + 1000)
    wait = math.max(wait, tat - now - tolerance)
  end
end
return tostring(wait)
"""

# KEYS: buckets. ARGV[1]: seconds from now until which they hold nothing; ARGV[1 + i]: tolerance of bucket i.
_PAUSE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
for i = 1, #KEYS do
  local tolerance = tonumber(ARGV[1 + i])
  local empty_at = now + tonumber(ARGV[1]) + tolerance
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < empty_at then
    redis.call('SET', KEYS[i], tostring(empty_at), 'PX', math.ceil((empty_at - now) * 1000) + 1000)
  end
end
return 1
"""


def fleet_id(base_url: str, api_key: str) -> str:
    """Workers that call the same endpoint with the same key share buckets; the key itself is never stored."""
    return hashlib.sha256(f"{base_url.rstrip('/')}\0{api_key}".encode()).hexdigest()[:16]


class FleetBuckets:
    """The key's buckets in Redis. Thread-safe; every method degrades to 'unavailable' instead of raising."""

    RETRY_S = 2.0  # after a failure, try the store again this much later

    def __init__(self, url: str, fleet: str, burst_s: float = 1.0, timeout_s: float = 2.0) -> None:
        # a slow answer still beats falling back to a share: the timeout is generous, a model call is slower
        self.url = url
        self.burst_s = burst_s
        self._redis = redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s)
        self._keys = [f"nightshift:quota:{fleet}:requests", f"nightshift:quota:{fleet}:tokens"]
        self._reserve = self._redis.register_script(_RESERVE)
        self._pause = self._redis.register_script(_PAUSE)
        self._lock = threading.Lock()
        self._down_until = 0.0
        self.failures = 0
        self.available = True

    def _call(self, fn, *args, **kwargs):  # noqa: ANN001, ANN202 - one guarded path for every script call
        if time.monotonic() < self._down_until:
            return None
        try:
            result = fn(*args, **kwargs)
        except redis.RedisError as exc:
            with self._lock:
                self.failures += 1
                self._down_until = time.monotonic() + self.RETRY_S
                if self.available:
                    log.warning("quota store %s unreachable (%s): this worker falls back to its configured "
                                "share of the quota until it answers again", self.url, exc)
                self.available = False
            return None
        if not self.available:
            with self._lock:
                if not self.available:
                    log.warning("quota store %s answers again: back on the fleet's shared quota", self.url)
                self.available = True
        return result

    def reserve(self, requests_per_minute: float | None, tokens_per_minute: float | None,
                tokens: float) -> float | None:
        """Reserve one request and ``tokens`` tokens; seconds to wait, or None when the store is unreachable."""
        args: list[float] = []
        for per_minute, amount in ((requests_per_minute, 1.0), (tokens_per_minute, tokens)):
            args += [60.0 / per_minute if per_minute else 0.0, self.burst_s, amount]
        found = self._call(self._reserve, keys=self._keys, args=args)
        return None if found is None else max(0.0, float(found))

    def settle(self, tokens_per_minute: float | None, delta_tokens: float) -> None:
        """Charge (or give back) the difference between a call's estimated and its real tokens."""
        if tokens_per_minute and delta_tokens:
            self._call(self._reserve, keys=self._keys[1:], args=[60.0 / tokens_per_minute, self.burst_s,
                                                                 delta_tokens])

    def pause(self, seconds: float) -> None:
        """A 429 reached one worker: the whole fleet holds nothing for ``seconds``."""
        self._call(self._pause, keys=self._keys, args=[seconds, self.burst_s, self.burst_s])
