"""The timed input of perf-pair-count: make_args(seed) -> the arguments of one call."""
import random


def make_args(seed):
    rng = random.Random(seed)
    return ([rng.randint(-1000, 1000) for _ in range(1800)], rng.randint(-200, 200))
