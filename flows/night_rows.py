"""The night's rows before and after its trials: verified, repaired, and checked against the free space.

Before: every row on disk is parsed (corrupt ones moved aside), broken trial-cache entries and stray
temporary files a failed writer left are removed, and the disk must hold what the trials left to run will
write. After: the rows are verified again; a row that broke during the night is answered again (a cache
hit rewrites it, else the trial runs), so the Parquet file is built from valid rows only, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from prefect import get_run_logger

from nightshift.atomic_files import remove_temporaries
from nightshift.experiment.trials import TrialSpec
from nightshift.models import TrialResult
from nightshift.tasks.disk_space import (
    bytes_per_trial,
    check_free_space,
    remove_broken_cache_entries,
    remove_empty_files,
)
from nightshift.tasks.row_check import RowCheck, check_rows


def prepare_rows(run_dir: Path, specs: list[TrialSpec], trial_cache: Path | str,
                 history_runs: list[Path]) -> RowCheck:
    """Verify the rows on disk, clear what failed writes left, and check the free space (DiskFull if short)."""
    logger = get_run_logger()
    check = check_rows(run_dir, [s.trial_id for s in specs], run_dir.name)
    if check.corrupt:
        logger.warning("%d corrupt row files moved aside (results/*.json.corrupt); those trials are answered "
                       "again from the trial cache or run", len(check.corrupt))
    finished = check.finished()
    left = [s.trial_id for s in specs if s.trial_id not in finished]
    broken = remove_broken_cache_entries(trial_cache, [f"trial-{t}" for t in left])
    broken += remove_empty_files(trial_cache, min_age_s=60)
    stray = remove_temporaries(run_dir / "results") + remove_temporaries(run_dir)
    if broken or stray:
        logger.warning("removed %d broken trial-cache entries and %d temporary files a failed write left",
                       broken, stray)
    check_free_space(run_dir, len(left), bytes_per_trial([run_dir, *history_runs], trial_cache), len(specs))
    return check


def assemble_rows(run_dir: Path, specs: list[TrialSpec], answer_again: Callable[[list[TrialSpec]], object]
                  ) -> list[TrialResult]:
    """The valid rows of these trials in order; corrupt ones are answered again once by ``answer_again``."""
    ids = [s.trial_id for s in specs]
    check = check_rows(run_dir, ids, run_dir.name)
    if check.corrupt:
        get_run_logger().warning("%d rows broke during the night; answering them again", len(check.corrupt))
        answer_again([s for s in specs if s.trial_id in set(check.corrupt)])
        check = check_rows(run_dir, ids, run_dir.name)
    return [check.rows[t] for t in ids if t in check.rows]
