"""What the Prefect server itself made of a benchmark night: lines of its log that say it dropped a message or
answered 503, the task runs and task-run events its database holds, its size and the memory of its processes.

Both engines are read the same way: the embedded SQLite file (PREFECT_HOME/prefect.db) or the project's
PostgreSQL (deployments/production.py). Every task run of a night emits three task-run events (Pending, Running,
its final state) and the server records the task run itself from them (its task-run recorder); a server that
drops events has fewer of either.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from pathlib import Path

DROPPED = re.compile(r"dropping|queue is full|Event queue at", re.IGNORECASE)
UNAVAILABLE = re.compile(r"\b503\b")
COUNTS = ("SELECT (SELECT count(*) FROM task_run), "
          "(SELECT count(*) FROM events WHERE event LIKE 'prefect.task-run.%')")
SIZE = {"sqlite": None, "production": "SELECT pg_database_size(current_database())"}


def log_findings(log: Path) -> dict:
    text = log.read_text(errors="replace") if log.is_file() else ""
    dropped = [line for line in text.splitlines() if DROPPED.search(line)]
    return {"dropped_lines": len(dropped), "dropped_example": dropped[0][:300] if dropped else "",
            "unavailable_lines": sum(bool(UNAVAILABLE.search(line)) for line in text.splitlines())}


def _postgres(state_dir: Path, queries: list[str]) -> list[tuple]:
    import asyncpg

    from nightshift.deployments.production import ProductionStack

    async def run() -> list[tuple]:
        url = ProductionStack(state_dir).database_url.replace("postgresql+asyncpg", "postgresql")
        conn = await asyncpg.connect(url)
        try:
            return [tuple(await conn.fetchrow(q)) for q in queries]
        finally:
            await conn.close()

    return asyncio.run(run())


def database_counts(state_dir: Path, home: Path, mode: str) -> dict:
    """Task runs, task-run events and database size (MiB) as the server stored them."""
    if mode == "production":
        (runs, events), (size,) = _postgres(state_dir, [COUNTS, SIZE["production"]])
    else:
        db = home / "prefect.db"
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            runs, events = conn.execute(COUNTS).fetchone()
        size = sum(p.stat().st_size for p in home.glob("prefect.db*"))
    return {"task_runs": runs, "task_run_events": events, "db_mib": size / 2**20}


def settled_counts(state_dir: Path, home: Path, mode: str, quiet_s: float = 15, timeout_s: float = 600) -> dict:
    """The counts at the night's end and once the server has caught up (nothing new for ``quiet_s``): the event
    persister and the task-run recorder consume the event stream behind the night, and with Prefect's in-memory
    messaging whatever they have not consumed when the server stops is lost. ``catch_up_s``: how long that took."""
    first = last = database_counts(state_dir, home, mode)
    started = changed = time.monotonic()
    while time.monotonic() - started < timeout_s and time.monotonic() - changed < quiet_s:
        time.sleep(2)
        now = database_counts(state_dir, home, mode)
        if (now["task_runs"], now["task_run_events"]) != (last["task_runs"], last["task_run_events"]):
            last, changed = now, time.monotonic()
    return {**last, "at_end_task_runs": first["task_runs"], "at_end_task_run_events": first["task_run_events"],
            "catch_up_s": round(changed - started, 1)}


def tree_mib(root: int, field: str = "VmHWM") -> float:
    """``field`` summed over ``root`` and its children (postgres' backends are its children in sessions of their
    own, so a process group would miss them): VmHWM, peak resident; Pss, resident now with each shared page
    divided among the processes that map it (postgres' shared buffers would count once per backend otherwise)."""
    total = 0
    for proc in Path("/proc").iterdir():
        try:
            if not proc.name.isdigit():
                continue
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if int(proc.name) == root or ppid == root:
                status = (proc / ("smaps_rollup" if field == "Pss" else "status")).read_text()
                total += int(next(x for x in status.splitlines() if x.startswith(field)).split()[1])
        except (OSError, ValueError, StopIteration, IndexError):
            continue
    return total / 1024


def backing_mib(state_dir: Path) -> dict:
    """Memory of the production server's Redis (peak) and PostgreSQL (proportional, at the end of the night);
    nothing for SQLite, which has neither."""
    from nightshift.deployments.production import ProductionStack

    if not (state_dir / "production.json").is_file():
        return {}
    postmaster = ProductionStack(state_dir).postmaster_pid() or 0
    return {"redis_mib": tree_mib(int((state_dir / "redis.pid").read_text())),
            "postgres_mib": tree_mib(postmaster, "Pss")}
