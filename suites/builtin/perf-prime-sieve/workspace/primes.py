"""Number helpers for the key generator."""


def primes_below(limit):
    """All primes p with 2 <= p < limit, ascending."""
    found = []
    for n in range(2, limit):
        if all(n % d for d in range(2, int(n ** 0.5) + 1)):
            found.append(n)
    return found
