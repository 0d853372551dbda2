"""Token estimates before a call and its price after it.

The estimate is what the endpoint's rate limiter will charge when it admits the request: OpenAI (and the
simulator) count the prompt, estimated from its characters, plus ``max_tokens``. Characters per token
vary by model and language, so ``TokenEstimator`` learns the ratio from each reply's ``usage``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping
from typing import Protocol

CHARS_PER_TOKEN = 4.0


def prompt_chars(messages: list[dict]) -> int:
    """Characters the endpoint reads: message contents (strings or text parts) and tool-call arguments."""
    total = 0
    for message in messages:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if isinstance(content, str):
            total += len(content)
        elif isinstance(content, list):
            total += sum(len(p.get("text") or "") for p in content if isinstance(p, dict))
        for call in message.get("tool_calls") or []:
            function = call.get("function") if isinstance(call, dict) else None
            if isinstance(function, dict):
                total += len(str(function.get("arguments") or ""))
    return total


class TokenEstimator:
    """Prompt tokens from characters, scaled by what ``usage`` has shown so far (thread-safe)."""

    def __init__(self, chars_per_token: float = CHARS_PER_TOKEN, smoothing: float = 0.1) -> None:
        self.chars_per_token = chars_per_token
        self.smoothing = smoothing
        self.ratio = 1.0  # observed prompt tokens / char-based estimate
        self._lock = threading.Lock()

    def prompt_tokens(self, chars: int) -> int:
        return math.ceil(chars / self.chars_per_token * self.ratio)

    def learn(self, chars: int, prompt_tokens: int) -> None:
        raw = chars / self.chars_per_token
        if raw < 50 or prompt_tokens <= 0:  # tiny prompts are dominated by per-message overhead
            return
        with self._lock:
            observed = min(4.0, max(0.25, prompt_tokens / raw))
            self.ratio += self.smoothing * (observed - self.ratio)


class Price(Protocol):
    """USD per million tokens (the experiment file's ``model.prices`` entries satisfy this)."""

    input_per_mtok: float
    output_per_mtok: float


def cost_usd(prices: Mapping[str, Price], models: tuple[str | None, ...], input_tokens: int,
             output_tokens: int) -> float | None:
    """Cost of one call under the first of ``models`` (requested name, served version) with a price."""
    for model in models:
        price = prices.get(model) if model else None
        if price is not None:
            return (input_tokens * price.input_per_mtok + output_tokens * price.output_per_mtok) / 1e6
    return None
