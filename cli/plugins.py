"""The ``nightshift plugins`` command: every installed harness, metric, suite importer and sandbox backend."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table


def add_plugins_command(sub: argparse._SubParsersAction) -> None:
    cmd = sub.add_parser("plugins", help="list installed harnesses, metrics, importers and sandbox backends "
                                         "with their source and version")
    cmd.set_defaults(fn=plugins_command)


def plugin_rows() -> list[tuple[str, str, str, str]]:
    """(kind, name, source, version) of every plugin; one that fails to load shows its error as the version."""
    from nightshift.plugins import ALL

    return [(kind, p.name, p.source, p.version) for kind, registry in ALL.items() for p in registry.installed()]


def plugins_command(_args: argparse.Namespace, console: Console) -> int:
    table = Table(title="Installed plugins (entry-point groups nightshift.<kind>; 'module:attr' also works)")
    for col in ("kind", "name", "source", "version"):
        table.add_column(col, overflow="fold")
    rows = plugin_rows()
    for kind, name, source, version in rows:
        style = "red" if source == "broken" else None
        table.add_row(kind, name, source, version, style=style)
    console.print(table)
    broken = [f"{kind} {name!r}" for kind, name, source, _ in rows if source == "broken"]
    if broken:  # an installed plugin that does not load fails the trial that names it: say so, and fail here
        console.print(f"{len(broken)} plugin(s) do not load: {', '.join(broken)}; the version column holds the "
                      f"error. Fix or uninstall the package that registers them.", style="red", markup=False,
                      highlight=False)
        return 1
    return 0
