"""The validation record of a suite (validation.json beside suite.toml), written by validate-suite.

It says, per case and at which content hash, whether the oracle resolved the case, whether the
untouched workspace failed it, and which tests were flaky. The loader reads the flaky tests from it
(they are run but never scored); ``require_validated`` refuses a suite whose record is missing,
stale (a case's content hash changed since validation) or failing, unless the caller passes an
explicit override; ``run_validation_pins`` is what a run calls before any trial starts.
"""

from __future__ import annotations

import json
import os
import tempfile
import tomllib
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, Field

from nightshift.errors import SuiteError
from nightshift.models import Case
from nightshift.suites.loader import VALIDATION_FILE


class CaseRecord(BaseModel):
    """Validation of one case at one content hash."""

    content_hash: str
    ok: bool
    problems: list[str] = []
    flaky: list[str] = Field([], description="Tests whose answer changed between oracle repeats.")
    oracle: dict[str, list[int] | float] = Field({}, description="Counts of the first oracle run and its progress.")
    empty: dict[str, list[int] | float] = Field({}, description="Counts of the untouched workspace.")
    outputs: dict[str, str] = Field({}, description="Full captured output of every test, keyed 'oracle/<test>' "
                                    "and 'empty/<test>' (none for held-out cases).")
    seconds: float = 0.0
    gold_resolved: bool | None = Field(None, description="Every oracle repeat passed every steady test.")
    breaking: list[int] = Field([], description="Breaking patches caught, run (repository tasks).")


class SuiteRecord(BaseModel):
    suite: str
    grader_version: str
    repeats: int
    validated_at: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    cases: dict[str, CaseRecord]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.cases.values())


def read_record(suite_dir: Path) -> SuiteRecord | None:
    path = Path(suite_dir) / VALIDATION_FILE
    if not path.is_file():
        return None
    try:
        return SuiteRecord.model_validate_json(path.read_text())
    except ValueError as exc:
        raise SuiteError(f"{path}: unreadable validation record ({exc}); run nightshift validate-suite again") from exc


def write_record(suite_dir: Path, record: SuiteRecord) -> Path:
    """Merge ``record`` into the suite's record (cases validated earlier stay) and write it atomically."""
    path = Path(suite_dir) / VALIDATION_FILE
    old = read_record(suite_dir) if path.is_file() else None
    if old is not None and old.grader_version == record.grader_version:
        record = record.model_copy(update={"cases": {**old.cases, **record.cases}})
    record.cases = dict(sorted(record.cases.items()))
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".validation-")
    with os.fdopen(fd, "w") as handle:
        handle.write(json.dumps(record.model_dump(mode="json"), indent=1) + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return path


def unvalidated(suite_dir: Path, cases: list[Case], grader_version: str) -> list[str]:
    """One line per case that has no passing validation at its current content and grader version."""
    record = read_record(suite_dir)
    if record is None:
        return [f"{suite_dir}: no {VALIDATION_FILE}; the suite was never validated"]
    if record.grader_version != grader_version:
        return [f"{suite_dir}: validated with grader {record.grader_version}, this is {grader_version}"]
    lines = []
    for case in cases:
        found = record.cases.get(case.id)
        if found is None or found.content_hash != case.content_hash:
            lines.append(f"{case.id}: changed since it was validated" if found else f"{case.id}: never validated")
        elif not found.ok:
            lines.append(f"{case.id}: failed validation: {'; '.join(found.problems)[:300]}")
    return lines


def require_validated(suite_dir: Path, cases: list[Case], grader_version: str, allow: bool = False,
                      suite_arg: str | None = None, override: str = "allow unvalidated suites explicitly"
                      ) -> list[str]:
    """Raise SuiteError when any case lacks a passing validation, unless ``allow`` (then return the lines).
    ``suite_arg`` is how the user names the suite (for the fix), ``override`` how they would allow it."""
    lines = unvalidated(suite_dir, cases, grader_version)
    if lines and not allow:
        shown = "\n  ".join(lines[:20]) + (f"\n  ... and {len(lines) - 20} more" if len(lines) > 20 else "")
        raise SuiteError(f"suite {suite_dir} cannot be used until it validates:\n  {shown}\n"
                         f"fix: run `nightshift validate-suite {suite_arg or suite_dir}`, or {override}")
    return lines


def run_validation_pins(suites: list[tuple[str, Path]], cases: list[Case], grader_version: str, allow: bool,
                        experiment_file: Path) -> dict[str, str]:
    """For a run: suite name -> 'validated' or what was unvalidated; refuses (SuiteError) unless ``allow``.

    ``suites`` pairs what the experiment wrote ('builtin', 'humaneval', a path) with the folder; only the
    run's own cases are checked, so a run of a few cases needs only those validated."""

    pins = {}
    for written, folder in suites:
        name = tomllib.loads((folder / "suite.toml").read_text()).get("name", folder.name)
        chosen = [c for c in cases if c.suite == name]
        # the fix is typed where the user is, not where the experiment file is: its paths are relative to the file
        arg = written if written in ("builtin", "humaneval") else _from_here(folder)
        lines = require_validated(folder, chosen, grader_version, allow=allow, suite_arg=arg,
                                  override=f"set allow_unvalidated: true in {experiment_file}")
        pins[name] = "validated" if not lines else (
            f"unvalidated, allowed by allow_unvalidated ({len(lines)} problems; first: {lines[0][:200]})")
    return pins


def _from_here(folder: Path) -> str:
    """``folder`` as the current directory would name it: relative below it, else absolute."""
    relative = os.path.relpath(folder.resolve())
    return str(folder.resolve()) if relative.startswith("..") else relative
