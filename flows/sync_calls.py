"""Prefect's dual calls (``Block.load``, ``run_deployment``, artifacts) as the plain values they are here.

Prefect decorates them to return a coroutine when called inside an event loop and the value otherwise, and types
them as either. The night's flows are synchronous, so the value is what they get; ``sync_value`` says so to the
type checker and fails loudly, naming the call, if one is ever made from async code.
"""

from __future__ import annotations

import inspect
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def sync_value(value: T | Coroutine[Any, Any, T], what: str) -> T:
    """``value`` as returned by a Prefect call made from synchronous code."""
    if inspect.iscoroutine(value):
        value.close()
        raise RuntimeError(f"{what} returned a coroutine: it was called inside an event loop; call it from sync code")
    return value  # type: ignore[return-value]  # not a coroutine, checked above: mypy cannot narrow a TypeVar union
