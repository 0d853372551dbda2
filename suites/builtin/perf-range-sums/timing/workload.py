"""The timed input of perf-range-sums: make_args(seed) -> the arguments of one call."""
import random


def make_args(seed):
    rng = random.Random(seed)
    values = [rng.randint(-1000, 1000) for _ in range(8000)]
    queries = []
    for _ in range(3000):
        lo = rng.randint(0, 8000)
        queries.append((lo, rng.randint(lo, 8000)))
    return (values, queries)
