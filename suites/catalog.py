"""Suite names a user can type: 'builtin', 'humaneval', or the path of a suite folder.

Imported suites are written once as ordinary case folders under the suite cache
($NIGHTSHIFT_SUITE_CACHE, else .nightshift/suites in the project folder) and re-written only when the
importer or its source changes, so their validation record stays valid between commands.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

from nightshift.errors import SuiteError
from nightshift.plugins import IMPORTERS
from nightshift.registry import PluginError
from nightshift.resources import package_path, state_dir
from nightshift.suites.humaneval import import_humaneval
from nightshift.suites.humaneval.importer import HERE, data_file
from nightshift.suites.pypi_tasks.shipped import SHIPPED, built_suite, is_recipe

BUILTIN = package_path("nightshift.suites", "builtin")


def suite_cache() -> Path:
    return Path(os.environ.get("NIGHTSHIFT_SUITE_CACHE", state_dir() / "suites"))


def _importer_hash() -> str:
    """Changes whenever the HumanEval importer, its generator files, overrides, alternative solutions or
    the data file change."""

    digest = hashlib.sha256(data_file().read_bytes())
    for path in sorted(p for p in HERE.rglob("*.py") if "__pycache__" not in p.parts):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def humaneval_suite(seed: int = 0) -> Path:
    """The HumanEval suite folder, imported into the cache on first use."""

    folder = suite_cache() / "humaneval"
    stamp = folder / ".importer"
    wanted = f"{_importer_hash()} seed={seed}"
    if not (stamp.is_file() and stamp.read_text() == wanted):
        shutil.rmtree(folder, ignore_errors=True)
        import_humaneval(folder, seed=seed)
        stamp.write_text(wanted)
    return folder


def resolve_suite(name: str, base: Path | None = None) -> Path:
    """A suite folder for 'builtin', 'humaneval', 'pypi' or a path (relative to ``base`` or the working folder); a
    shipped suite's recipe folder (suites/pypi) resolves to its built copy."""
    if name == "builtin":
        return BUILTIN
    if name == "humaneval":
        return humaneval_suite()
    if name == "pypi":  # the shipped repository suite, built per machine by `nightshift build-suite pypi`
        return built_suite(SHIPPED)
    path = (base or Path.cwd()) / name
    if not path.exists():
        raise SuiteError(f"{path}: no such folder; use 'builtin', 'humaneval', a suite folder relative to "
                         f"{base or Path.cwd()}, or write one with `nightshift import-suite`")
    if not (path / "suite.toml").is_file():
        raise SuiteError(f"{path}: not a suite folder (no suite.toml); use 'builtin', 'humaneval', or a folder "
                         f"written by `nightshift import-suite`")
    if is_recipe(path):
        return built_suite(path.resolve())
    return path.resolve()


def suite_name(path: Path) -> str:
    return tomllib.loads((Path(path) / "suite.toml").read_text()).get("name", Path(path).name)


def run_importer(format_name: str, source: Path | None, out: Path, name: str | None = None,
                 options: dict[str, Any] | None = None) -> object:
    """Resolve ``format_name`` in IMPORTERS and write the suite; every problem is a SuiteError for the user.

    ``options`` are the format-specific flags the user gave (e.g. harbor's base_images); one the importer
    does not take is refused rather than ignored.
    """


    try:
        importer = IMPORTERS.resolve(format_name).target
    except PluginError as exc:
        raise SuiteError(f"import-suite: {exc}") from None
    needs = getattr(importer, "source", "a source")
    if needs is not None and source is None:
        raise SuiteError(f"import-suite {format_name}: give the source ({needs}) before the output folder")
    if not callable(importer):
        raise SuiteError(f"import-suite: importer {format_name!r} is not callable; it must take (source, out, name)")
    given = {k: v for k, v in (options or {}).items() if v}
    unknown = sorted(set(given) - set(getattr(importer, "options", ())))
    if unknown:
        raise SuiteError(f"import-suite {format_name}: it takes no {', '.join(unknown)} option; remove it")
    return importer(source, out, name or format_name.rpartition(":")[2], **given)
