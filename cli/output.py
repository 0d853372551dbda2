"""The console every subcommand prints to, and how an error reaches the person who ran the command."""

from __future__ import annotations

import sys

from rich.console import Console

# a terminal's own width; piped output 120 wide (rich would pick $COLUMNS or 80, which tools set for children)
console = Console(width=None if sys.stdout.isatty() else 120)


def say(text: str, style: str | None = None) -> None:
    """Print as written: no rich markup (a YAML error's [...] must survive), no highlighting."""
    console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)
