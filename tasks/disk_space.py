"""A full disk is a clear stop, not a traceback: free space checked before the night, ENOSPC turned into
one message naming the folder, what was written and how to resume.

The estimate of what a night writes is per trial: a row, its trajectory and its cache entry, measured on
the finished trials of this run or of the history run when there are any (``DEFAULT_TRIAL_BYTES`` when
not), times the trials still to run, plus room for the Parquet file and the report.
"""

from __future__ import annotations

import errno
import json
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

from nightshift.errors import StorageError

DEFAULT_TRIAL_BYTES = 256 * 1024
"""A trial's row + trajectory + cache entry when nothing measured is at hand (20 steps of long output)."""
FIXED_BYTES = 16 * 1024 * 1024
"""Parquet, report, plots, manifest and logs of one night."""
MARGIN = 1.5


class DiskFull(StorageError, RuntimeError):
    """The disk holding the run is full (or would be): the night stops with what it has written kept."""


def is_disk_full(exc: BaseException | None) -> bool:
    """True when ``exc`` or anything in its cause chain is ENOSPC (or a quota's EDQUOT)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, DiskFull) or (isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def written_rows(run_dir: Path) -> int:
    folder = run_dir / "results"
    return sum(1 for _ in folder.glob("*.json")) if folder.is_dir() else 0


def disk_full_message(run_dir: Path, total: int, detail: str = "") -> str:
    usage = shutil.disk_usage(run_dir if run_dir.exists() else run_dir.parent)
    return (f"no space left on the disk holding {run_dir} ({usage.free // (1024 * 1024)} MiB free of "
            f"{usage.total // (1024 * 1024)} MiB){': ' + detail if detail else ''}. The night stopped; "
            f"{written_rows(run_dir)} of {total} trial rows are written in {run_dir / 'results'} and kept. "
            f"Free space there (df -h {run_dir.parent}), then run the same command again: finished trials are "
            f"not run again.")


def bytes_per_trial(run_dirs: Iterable[Path], trial_cache: Path | str | None) -> int:
    """Mean bytes one finished trial left on disk in these run folders (row + trajectory + cache entry)."""
    total, count = 0, 0
    for run in run_dirs:
        for row in (run / "results").glob("*.json") if (run / "results").is_dir() else ():
            trajectory = run / "trajectories" / f"{row.stem}.jsonl"
            size = row.stat().st_size * 2  # the cache entry holds the same row
            size += trajectory.stat().st_size if trajectory.is_file() else 0
            total, count = total + size, count + 1
            if count >= 200:  # a sample is enough
                return total // count
    return total // count if count else DEFAULT_TRIAL_BYTES


def check_free_space(run_dir: Path, trials_left: int, per_trial: int, total: int) -> int:
    """Raise DiskFull before the night when the disk cannot hold what it will write; returns the estimate."""
    need = int((trials_left * per_trial + FIXED_BYTES) * MARGIN)
    probe = run_dir if run_dir.exists() else run_dir.parent
    free = shutil.disk_usage(probe).free
    if free < need:
        raise DiskFull(
            f"not enough free space for this night under {probe}: {free // (1024 * 1024)} MiB free, about "
            f"{need // (1024 * 1024)} MiB needed ({trials_left} of {total} trials to run × "
            f"{per_trial // 1024} KiB each, plus Parquet and report, with a {MARGIN}× margin). Free space "
            f"there or point output_dir at a bigger disk, then run again; nothing was run.")
    return need


def remove_broken_cache_entries(trial_cache: Path | str, keys: Iterable[str]) -> int:
    """Remove entries of a local trial cache that are empty or not JSON (a write that hit a full disk, a
    kill mid-write): Prefect would otherwise fail on them instead of running the trial; returns how many."""
    if not isinstance(trial_cache, Path) or not trial_cache.is_dir():
        return 0
    removed = 0
    for key in keys:
        entry = trial_cache / key
        try:
            json.loads(entry.read_bytes())
        except FileNotFoundError:
            continue
        except ValueError:
            entry.unlink(missing_ok=True)
            removed += 1
    return removed


def remove_empty_files(folder: Path | str, min_age_s: float = 0.0) -> int:
    """Remove zero-byte files of a local trial cache (Prefect's records of results and failures that hit a
    full disk; never valid) at least ``min_age_s`` old, so a write in progress elsewhere is left alone."""
    if not isinstance(folder, Path) or not folder.is_dir():
        return 0
    removed, now = 0, time.time()
    for entry in folder.iterdir():
        try:
            info = entry.stat()
            if entry.is_file() and info.st_size == 0 and now - info.st_mtime >= min_age_s:
                entry.unlink()
                removed += 1
        except FileNotFoundError:
            continue
    return removed
