"""Which cards a host has: from configuration (a count, a list of ids, or 'auto' via nvidia-smi), and the
host's timing pool: those cards, or reserved CPU cores where there are none (``timing_slots``).

``pool_for`` gives every caller in one process the same ``GpuPool`` for the same settings, so all the
trials of a flow run (threads) share one slot per card, and the lock files make processes on one
host share them too.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

from nightshift.experiment.config import GpuSettings
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


def cpu_slots(cores: list[int] | str = "auto") -> list[GpuCard]:
    """CPU-core timing slots: the listed cores, or 'auto' — the last core this process may run on (one slot:
    timing steps then queue for it, and the other cores stay with the night's sandboxes)."""
    allowed = sorted(os.sched_getaffinity(0))
    if cores == "auto":
        chosen = allowed[-1:]
    elif isinstance(cores, list):
        outside = sorted(set(cores) - set(allowed))
        if outside:
            raise ValueError(f"gpu.timing_cores: cores {outside} are not among this host's usable cores "
                             f"{allowed}; list cores from {allowed[0]} to {allowed[-1]}, or use 'auto'")
        chosen = sorted(set(cores))
    else:
        raise ValueError(f"gpu.timing_cores: {cores!r} is neither a list of core numbers nor 'auto'")
    return [GpuCard(id=f"cpu{n}", cpu=n) for n in chosen]


def timing_slots(settings: GpuSettings) -> list[GpuCard]:
    """The host's timing slots for ``gpu`` settings: its cards where it has any, else reserved CPU cores."""
    return cards_from(settings.cards, settings.stand_in) or cpu_slots(getattr(settings, "timing_cores", "auto"))


def timing_pool(settings: GpuSettings) -> GpuPool:
    """The process-wide timing pool (cards or CPU cores) for an experiment's ``gpu`` settings."""
    slots = timing_slots(settings)
    lock_dir = Path(settings.lock_dir) if getattr(settings, "lock_dir", None) else None
    return _shared_pool(slots, settings.stand_in, lock_dir)


def _shared_pool(slots: list[GpuCard], stand_in: bool, lock_dir: Path | None) -> GpuPool:
    key = (tuple(c.id for c in slots), stand_in, str(lock_dir))
    with _POOLS_LOCK:
        if key not in _POOLS:
            _POOLS[key] = GpuPool(slots, lock_dir=lock_dir)
        return _POOLS[key]


def pool_for(settings: GpuSettings) -> GpuPool:
    """The process-wide pool for an experiment's ``gpu`` settings (cards, stand_in, lock_dir)."""
    cards = cards_from(settings.cards, settings.stand_in)
    lock_dir = Path(settings.lock_dir) if getattr(settings, "lock_dir", None) else None
    return _shared_pool(cards, settings.stand_in, lock_dir)
