"""What the viewer reads from one run folder: result rows, the night overview, one trial's full record.

Everything comes from the run's own files (results.parquet or results/*.json, manifest.json,
summary.json, trajectories/, grades/, diffs/); ``version`` tells a reader when a still-running night
has added rows. Held-out trials are redacted here, before anything reaches a page or a file: ids,
status and scores only — no instruction, reason, commands, test names or outputs.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pyarrow.parquet as pq

from nightshift.errors import StorageError
from nightshift.tasks.artifacts import read_diff, read_grade, trajectory_path
from nightshift.viewer.steps import read_steps, read_trajectory

# the columns the trial list carries for every row (kept small: 5,000 rows must paint in well under 2 s)
LIST_COLUMNS = ("trial_id", "case_id", "variant", "domain", "split", "seed", "status", "infra_kind", "score",
                "progress", "steps", "input_tokens", "output_tokens", "cost_usd", "duration_s", "reason", "reused_from",
                "flag", "flag_names")
# a held-out trial keeps its flags' severity and names (what was seen), never their evidence (commands, lines)
HELD_OUT_KEPT = {"trial_id", "case_id", "variant", "domain", "split", "seed", "status", "score", "progress", "flag",
                 "flag_names"}
SEVERITIES = ("info", "suspect", "cheat")
SHOWN = 10  # slowest / most expensive trials in the overview


class RunNotFound(StorageError, ValueError):
    """The folder given is not a run folder (no results)."""


def redact(row: dict) -> dict:
    """A held-out row keeps its ids and scores only; every other field is blanked."""
    if row.get("split", "public") == "public":
        return row
    return {k: (v if k in HELD_OUT_KEPT else None) for k, v in row.items()}


@dataclass
class RunData:
    """One run folder, read once; ``label`` names it in a side-by-side view (``a`` the run, ``b`` the --vs run)."""

    path: Path
    label: str = "a"
    _trials: dict[str, dict] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, path: Path | str, label: str = "a") -> RunData:
        folder = Path(path)
        if folder.name == "results.parquet":
            folder = folder.parent
        if not folder.is_dir():
            raise RunNotFound(f"{folder}: no such run folder (its parent {folder.parent} "
                              f"{'exists' if folder.parent.is_dir() else 'does not exist either'}); "
                              "give a folder under the experiment's output_dir, e.g. runs/<experiment>-<hash>")
        if not (folder / "results.parquet").is_file() and not (folder / "results").is_dir():
            raise RunNotFound(f"{folder}: not a run folder (no results.parquet and no results/); "
                              "give a folder that `nightshift run` wrote")
        return cls(folder, label)

    @property
    def run_id(self) -> str:
        return self.path.name

    @cached_property
    def manifest(self) -> dict:
        path = self.path / "manifest.json"
        return json.loads(path.read_text()) if path.is_file() else {}

    @cached_property
    def summary(self) -> dict:
        path = self.path / "summary.json"
        return json.loads(path.read_text()) if path.is_file() else {}

    def version(self) -> tuple:
        """Changes when a row is added (a night still running) or the Parquet file is rewritten."""
        stamps: list[int | None] = []
        for path in (self.path / "results", self.path / "results.parquet"):
            try:
                stamps.append(path.stat().st_mtime_ns)
            except OSError:
                stamps.append(None)
        return tuple(stamps)

    @cached_property
    def rows(self) -> list[dict]:
        """Every result row, the per-trial files winning over the Parquet file (they are newer mid-night)."""
        folder = self.path / "results"
        no_entries: list[os.DirEntry[str]] = []
        with os.scandir(folder) if folder.is_dir() else contextlib.nullcontext(no_entries) as entries:
            files = sorted(Path(e.path) for e in entries if e.name.endswith(".json"))
        parquet = self.path / "results.parquet"
        if parquet.is_file() and len(files) <= pq.ParquetFile(parquet).metadata.num_rows:
            rows = pq.read_table(parquet).to_pylist()  # plain Python values; DuckDB adds nothing for a full read
        else:
            rows = [json.loads(p.read_text()) for p in files]
        self._trials = {r["trial_id"]: r for r in rows}
        return rows

    def row(self, trial_id: str) -> dict | None:
        if not self._trials:
            _ = self.rows
        return self._trials.get(trial_id)

    def list_rows(self) -> dict:
        """The trial list as columns + value arrays (half the bytes of a list of objects), held-out redacted."""
        values = [[shown.get(c) for c in LIST_COLUMNS] for shown in map(redact, map(with_flag_summary, self.rows))]
        return {"columns": list(LIST_COLUMNS), "rows": values}

    def overview(self) -> dict:
        """Counts by status × variant × domain (infra errors apart), slowest and priciest trials, verdicts."""
        rows = self.rows
        statuses = sorted({r["status"] for r in rows}, key=_status_order)
        variants = sorted({r["variant"] for r in rows})
        by_variant = {v: {s: 0 for s in statuses} for v in variants}
        by_domain: dict[str, dict[str, dict[str, int]]] = {}
        infra: dict[str, int] = {}
        for r in rows:
            by_variant[r["variant"]][r["status"]] += 1
            cell = by_domain.setdefault(r["domain"] or "-", {}).setdefault(r["variant"], {"resolved": 0, "graded": 0})
            if r["status"] == "infra_error":
                kind = r.get("infra_kind") or "unclassified"
                infra[kind] = infra.get(kind, 0) + 1
            else:
                cell["graded"] += 1
                cell["resolved"] += r["status"] == "resolved"
        flags: dict[str, dict[str, int]] = {v: dict.fromkeys(SEVERITIES, 0) for v in variants}
        for r in map(with_flag_summary, rows):
            if r["flag"]:
                flags[r["variant"]][r["flag"]] += 1
        public = [r for r in rows if r.get("split", "public") == "public"]
        costly = "cost_usd" if any(r.get("cost_usd") for r in public) else "tokens"

        def cost(r: dict) -> float:
            return r.get("cost_usd") or 0 if costly == "cost_usd" else (r.get("input_tokens") or 0) + (
                r.get("output_tokens") or 0)
        return {
            "run_id": self.run_id, "trials": len(rows), "statuses": statuses, "variants": variants,
            "by_variant": by_variant, "by_domain": dict(sorted(by_domain.items())), "infra": infra,
            "slowest": [_brief(r) for r in sorted(public, key=lambda r: -(r.get("duration_s") or 0))[:SHOWN]],
            "costliest": [_brief(r) for r in sorted(public, key=lambda r: -cost(r))[:SHOWN]],
            "costly_by": costly, "verdicts": self.summary.get("verdicts", []),
            "models": {k: v.get("version") for k, v in self.manifest.get("models", {}).items()},
            "heldout": sum(r.get("split", "public") != "public" for r in rows),
            "reused": _counts(r.get("reused_from") for r in rows),
            "flags": flags if any(sum(c.values()) for c in flags.values()) else {},
        }

    def trial(self, trial_id: str) -> dict | None:
        """One trial's full record: row, instruction, steps, ending, problems (viewer/steps.py), grade, workspace
        diff. Held-out: the redacted row only."""
        row = self.row(trial_id)
        if row is None:
            return None
        row = {k: _plain(v) for k, v in with_flag_summary(row).items()}
        if row.get("split", "public") != "public":
            return {"row": redact(row), "heldout": True}
        trajectory = read_trajectory(trajectory_path(self.path, trial_id))
        return {"row": row, "heldout": False, **trajectory,
                "grade": read_grade(self.path, trial_id), "diff": read_diff(self.path, trial_id)}

    def search_text(self) -> dict[str, str]:
        """trial id → the agent's commands, for the list's search (read once, after the first paint)."""
        found = {}
        for row in self.rows:
            if row.get("split", "public") != "public":
                continue
            steps = read_steps(trajectory_path(self.path, row["trial_id"]), outputs=False)
            found[row["trial_id"]] = "\n".join(c["command"] for s in steps for c in s["calls"] if c["command"])
        return found


def with_flag_summary(row: dict) -> dict:
    """The row with ``flag`` (its highest severity, '' for none) and ``flag_names`` ('name name ...'), also for
    rows read from the per-trial files, which carry the flags only."""
    flags = list(row.get("flags") or [])
    worst = max((f.get("severity", "") for f in flags), key=lambda s: SEVERITIES.index(s) if s in SEVERITIES else -1,
                default="")
    return {**row, "flag": row.get("flag") or worst, "flag_names": " ".join(dict.fromkeys(f.get("name", "")
                                                                                          for f in flags))}


def _counts(values) -> dict[str, int]:
    """How many times each non-empty value occurs, in order of first occurrence."""
    found: dict[str, int] = {}
    for value in values:
        if value:
            found[value] = found.get(value, 0) + 1
    return found


def _plain(value):
    """NaN/NumPy scalars from the Parquet read as plain JSON values."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


def _status_order(status: str) -> tuple[int, str]:
    order = ["resolved", "failed", "step_limit", "timeout", "agent_error", "infra_error"]
    return (order.index(status) if status in order else len(order), status)


def _brief(row: dict) -> dict:
    return {k: _plain(row.get(k)) for k in ("trial_id", "case_id", "variant", "seed", "status", "duration_s",
                                            "input_tokens", "output_tokens", "cost_usd")}
