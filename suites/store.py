"""The suite store: every suite version a night used, kept by its suite hash so any past night can be replayed.

``<output_dir>/.suites/<suite hash>/`` holds the exact case folders a night ran (the manifest's ``suite_hash``
covers the case list and each case's content), one sub-folder per suite of the experiment with its suite.toml and
validation record, and ``suite.json`` naming them. It is written once, at the start of the night, into a
temporary folder renamed into place: a second night of the same version writes nothing, and a half-written
version is never read. Protected cases never reach it in the clear when a key is at hand: a sealed case is copied
as it is (still sealed), a held-out or commercial case kept in a plain folder is sealed into the store with its
split's key; only a protected case that runs without any key (one left in the clear, which `check` already warns
about) is copied as it is. A changed suite folder makes a new version beside the old one, so a v1 and its
verified v2 live side by side.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from nightshift.errors import SuiteError
from nightshift.models import Case
from nightshift.splits.keys import split_key
from nightshift.suites.loader import VALIDATION_FILE, tree_hash
from nightshift.suites.sealed import SEALED_META, seal_case_folder

STORE_DIR = ".suites"
INDEX = "suite.json"


def store_root(output_dir: Path) -> Path:
    return Path(output_dir) / STORE_DIR


def stored_version(output_dir: Path, suite_hash: str) -> Path | None:
    """The stored folder of one suite version, or None when it is not in the store."""
    folder = store_root(output_dir) / suite_hash
    return folder if (folder / INDEX).is_file() else None


def read_index(folder: Path) -> dict:
    try:
        index = json.loads((folder / INDEX).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SuiteError(f"{folder / INDEX}: cannot read it ({exc}); the stored suite version is damaged: remove "
                         f"{folder} (a later night of the same version writes it again)") from None
    if not isinstance(index, dict) or not isinstance(index.get("suites"), list):
        raise SuiteError(f"{folder / INDEX}: field 'suites' is missing; remove {folder} and run that version again")
    return index


def stored_suite_dirs(folder: Path) -> list[Path]:
    """The suite folders of a stored version, in the experiment's order."""
    return [folder / entry["folder"] for entry in read_index(folder)["suites"]]


def keep_suite_version(output_dir: Path, suite_hash: str, cases: Sequence[Case], suite_dirs: Sequence[Path],
                       key_secrets: dict[str, str] | None = None) -> Path:
    """Store the night's suite version unless it is there already; returns its folder.

    ``cases`` are the night's loaded cases (their ``root``: the plain or sealed folder they were read from) and
    ``suite_dirs`` the experiment's suite folders in order. Every plain copy is hashed again: a folder edited while
    the night started is refused rather than stored under a hash it does not have."""
    found = stored_version(output_dir, suite_hash)
    if found:
        return found
    root = store_root(output_dir)
    staging = root / f".{suite_hash}.{os.getpid()}-{uuid.uuid4().hex[:8]}.partial"
    staging.mkdir(parents=True)
    try:
        entries = []
        for index, suite_dir in enumerate(suite_dirs):
            suite_dir = Path(suite_dir).resolve()
            chosen = [c for c in cases if Path(c.root).parent == suite_dir]
            name = f"{index}-{suite_dir.name}"
            _copy_suite(suite_dir, chosen, staging / name, key_secrets)
            entries.append({"folder": name, "suite": chosen[0].suite if chosen else suite_dir.name,
                            "source": str(suite_dir), "cases": sorted(c.id for c in chosen)})
        index_data = {"suite_hash": suite_hash, "stored_at": datetime.now(UTC).isoformat(timespec="seconds"),
                      "suites": entries}
        (staging / INDEX).write_text(json.dumps(index_data, indent=2) + "\n")
        try:
            staging.rename(root / suite_hash)
        except OSError:  # another night of the same version stored it first: theirs is the same content
            if stored_version(output_dir, suite_hash) is None:
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return root / suite_hash


def _copy_suite(suite_dir: Path, cases: list[Case], into: Path, key_secrets: dict[str, str] | None) -> None:
    into.mkdir()
    shutil.copy2(suite_dir / "suite.toml", into / "suite.toml")
    if (suite_dir / VALIDATION_FILE).is_file():  # its flaky tests decide what each case scores
        shutil.copy2(suite_dir / VALIDATION_FILE, into / VALIDATION_FILE)
    ignore = shutil.ignore_patterns("__pycache__")
    for case in cases:
        source, target = Path(case.root), into / Path(case.root).name
        key = split_key(case.split, (key_secrets or {}).get(case.split)) if case.protected else None
        if case.sealed:
            shutil.copytree(source, target, symlinks=True, ignore=ignore)  # still sealed: never opened here
            if tomllib.loads((target / SEALED_META).read_text()).get("content_hash") != case.content_hash:
                raise SuiteError(f"{source}: sealed again while the night started (its {SEALED_META} no longer "
                                 f"names the content the night pinned); run the night again")
            continue
        if key is not None:  # a protected case kept in the clear: stored sealed with its split's key
            seal_case_folder(source, key, case.split, case.content_hash, tree_hash, out=target)
            continue
        shutil.copytree(source, target, symlinks=True, ignore=ignore)
        if tree_hash(target) != case.content_hash:
            raise SuiteError(f"{source}: its copy in the suite store does not hash as the night pinned it: the folder "
                             f"changed while the night started (let edits finish, then run it again), or it holds a "
                             f"link to something outside itself (make the link a file)")
