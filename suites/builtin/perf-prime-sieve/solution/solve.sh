#!/usr/bin/env bash
set -euo pipefail
cat > primes.py <<'EOF'
"""Number helpers for the key generator."""


def primes_below(limit):
    """All primes p with 2 <= p < limit, ascending."""
    if limit <= 2:
        return []
    sieve = bytearray([1]) * limit
    sieve[0] = sieve[1] = 0
    for n in range(2, int((limit - 1) ** 0.5) + 1):
        if sieve[n]:
            sieve[n * n::n] = bytes(len(range(n * n, limit, n)))
    return [n for n in range(limit) if sieve[n]]
EOF
