"""The `nightshift` command: one module per subcommand group, each imported only when its subcommand runs.

Owns parsing, printing and exit codes (an error is one line and its family's code: nightshift.errors); the
work is done by the part each subcommand names. Must not hold evaluation logic.
"""

from nightshift.cli.main import main

__all__ = ["main"]
