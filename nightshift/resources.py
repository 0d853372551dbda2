"""Where nightshift finds what it ships and where it keeps what it makes.

Shipped data (the built-in suite, importer scripts, deployment and project templates) is package data,
read through importlib.resources, so a wheel in site-packages works like the checkout. State (the
local Prefect server, caches) lives in the user's project folder — the current folder, or
$NIGHTSHIFT_HOME — never inside the installed package.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def package_path(package: str, *parts: str) -> Path:
    """A file or folder shipped inside `package` (e.g. 'nightshift.suites', 'builtin').

    Wheels install unzipped, so the traversable is a real folder; refuse anything else loudly.
    """
    found = resources.files(package).joinpath(*parts)
    path = Path(str(found))
    if not path.exists():
        raise FileNotFoundError(f"{package}/{'/'.join(parts)} is missing from the installed nightshift package; "
                                "reinstall it (pip install --force-reinstall nightshift)")
    return path


def project_dir() -> Path:
    """The user's project folder: $NIGHTSHIFT_HOME, else the current folder."""
    return Path(os.environ.get("NIGHTSHIFT_HOME") or os.getcwd()).resolve()


def state_dir() -> Path:
    """The project's own state: local Prefect server, logs, caches (.nightshift/ in the project)."""
    return project_dir() / ".nightshift"


def is_installed(path: Path) -> bool:
    """Whether ``path`` lies inside an installed package (site-packages), where nothing may be written; in a
    checkout (an editable install) the same data is the repository's own and may be."""
    return any(part in ("site-packages", "dist-packages") for part in Path(path).resolve().parts)
