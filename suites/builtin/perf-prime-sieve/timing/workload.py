"""The timed input of perf-prime-sieve: make_args(seed) -> the arguments of one call."""
import random


def make_args(seed):
    rng = random.Random(seed)
    return (rng.randint(55000, 65000),)
