"""The timed input of perf-dedupe-keep-order: make_args(seed) -> the arguments of one call."""
import random


def make_args(seed):
    rng = random.Random(seed)
    return ([rng.randrange(3000) for _ in range(5000)],)
