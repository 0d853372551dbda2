"""Which cards a host has: from configuration (a count, a list of ids, or 'auto' via nvidia-smi).

``pool_for`` gives every caller in one process the same ``GpuPool`` for the same settings, so all the
trials of a flow run (threads) share one slot per card, and the lock files make processes on one
host share them too.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from nightshift.gpu.pool import GpuCard, GpuPool

_POOLS: dict[tuple, GpuPool] = {}
_POOLS_LOCK = threading.Lock()


def discover_cards() -> list[str]:
    """Ids of this host's NVIDIA cards (their UUIDs, stable across reboots); empty without nvidia-smi."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    out = subprocess.run([smi, "--query-gpu=uuid", "--format=csv,noheader"], capture_output=True, text=True,
                         timeout=30)
    return [line.strip() for line in out.stdout.splitlines() if line.strip()] if out.returncode == 0 else []


def cards_from(cards: int | list[str] | str, stand_in: bool = False) -> list[GpuCard]:
    """Cards named by configuration: N (ids 0..N-1), a list of ids, or 'auto' (nvidia-smi)."""
    if cards == "auto":
        ids = discover_cards()
    elif isinstance(cards, int):
        ids = [f"stand-in-{i}" if stand_in else str(i) for i in range(cards)]
    elif isinstance(cards, str):
        raise ValueError(f"gpu.cards: {cards!r} is neither a count, a list of ids, nor 'auto'")
    else:
        ids = [str(c) for c in cards]
    return [GpuCard(id=i, stand_in=stand_in) for i in ids]


def pool_for(settings: Any) -> GpuPool:
    """The process-wide pool for an experiment's ``gpu`` settings (cards, stand_in, lock_dir)."""
    cards = cards_from(settings.cards, settings.stand_in)
    lock_dir = Path(settings.lock_dir) if getattr(settings, "lock_dir", None) else None
    key = (tuple(c.id for c in cards), settings.stand_in, str(lock_dir))
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = GpuPool(cards, lock_dir=lock_dir)
        return _POOLS[key]
