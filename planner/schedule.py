"""The order trials run in, and how they are dealt into shards.

The unit of ordering is a *block*: one case at one seed, with every variant's trial of it, adjacent
and in the experiment's variant order. Blocks run longest-predicted-first (the long trials start
while there is still plenty of short work to fill the other slots, so the night has no long tail),
and because a block never splits, a night cut short at any point still has every variant on the same
cases: its paired comparisons stay paired. With no history every prediction is equal and the sort,
being stable, keeps the listed order (seed-major, then case, then variant).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def case_block(spec: Any) -> Hashable:
    """The block of a TrialSpec-like object: (seed, case id)."""
    return (spec.seed, spec.case.id)


def blocks_of(specs: Sequence[T], block: Callable[[T], Hashable] = case_block) -> list[list[T]]:
    """Trials grouped by block, blocks in order of first appearance, trials in their listed order."""
    grouped: dict[Hashable, list[T]] = {}
    for spec in specs:
        grouped.setdefault(block(spec), []).append(spec)
    return list(grouped.values())


def order_trials(specs: Sequence[T], predict: Callable[[T], float],
                 block: Callable[[T], Hashable] = case_block) -> list[T]:
    """Blocks longest-predicted-first (a block's length is its longest trial); ties keep the listed order."""
    groups = blocks_of(specs, block)
    lengths = [max(predict(s) for s in g) for g in groups]
    order = sorted(range(len(groups)), key=lambda i: -lengths[i])
    return [spec for i in order for spec in groups[i]]


def deal_shards(specs: Sequence[T], count: int, predict: Callable[[T], float],
                block: Callable[[T], Hashable] = case_block) -> list[list[T]]:
    """Split ordered trials into ``count`` shards of about equal predicted work, whole blocks each, every
    shard keeping the given order (so each is longest-first too): each block goes to the lightest shard."""
    shards: list[list[T]] = [[] for _ in range(max(1, count))]
    work = [0.0] * len(shards)
    for group in blocks_of(specs, block):
        lightest = min(range(len(shards)), key=lambda i: (work[i], i))
        shards[lightest].extend(group)
        work[lightest] += sum(predict(s) for s in group)
    return shards
